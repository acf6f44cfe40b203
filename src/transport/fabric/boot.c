/* Bootstrap through the launcher's PMIx server (Open MPI's mpirun/prterun, Slurm's
 * srun --mpi=pmix): this process's rank and the job's size, a key-value exchange of the
 * endpoints' addresses, fences, the job-wide abort. Every function returns 0 or a PMIx status
 * (PMIx_Error_string names it). */
#include <pmix.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static pmix_proc_t me;

/* Called by PMIx's own thread when the connection to the launcher's server is lost: the
 * launcher was killed (a test harness's timeout, a SIGKILL), so nobody will end this job.
 * Every image ends itself instead of polling its peers for ever (the images that were the
 * launcher's children are otherwise left running, as orphans). */
static void lost(size_t id, pmix_status_t status, const pmix_proc_t *source, pmix_info_t info[],
		 size_t ninfo, pmix_info_t *results, size_t nresults,
		 pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
	(void)id, (void)status, (void)source, (void)info, (void)ninfo, (void)results;
	(void)nresults, (void)cbfunc, (void)cbdata;
	dprintf(2, "ferrocaf: image %u lost its launcher (the PMIx server is gone); ending\n",
		me.rank + 1);
	_exit(1);
}

const char *ffp_strerror(int rc) { return PMIx_Error_string(rc); }

/* Connects to the launcher's PMIx server; *rank and *size of the job. */
int ffp_init(uint32_t *rank, uint32_t *size)
{
	int rc = PMIx_Init(&me, NULL, 0);
	if (rc != PMIX_SUCCESS)
		return rc;
	pmix_proc_t job;
	pmix_value_t *v = NULL;
	PMIX_PROC_LOAD(&job, me.nspace, PMIX_RANK_WILDCARD);
	rc = PMIx_Get(&job, PMIX_JOB_SIZE, NULL, 0, &v);
	if (rc != PMIX_SUCCESS)
		return rc;
	*rank = me.rank;
	*size = v->data.uint32;
	PMIX_VALUE_RELEASE(v);
	pmix_status_t codes[] = {PMIX_ERR_LOST_CONNECTION};
	rc = PMIx_Register_event_handler(codes, 1, NULL, 0, lost, NULL, NULL);
	return rc < 0 ? rc : PMIX_SUCCESS;
}

/* Publishes `len` bytes under `key` for every process of the job. */
int ffp_put(const char *key, const void *bytes, size_t len)
{
	pmix_value_t v;
	pmix_byte_object_t bo = {.bytes = (char *)bytes, .size = len};
	PMIX_VALUE_LOAD(&v, &bo, PMIX_BYTE_OBJECT);
	int rc = PMIx_Put(PMIX_GLOBAL, key, &v);
	PMIX_VALUE_DESTRUCT(&v);
	return rc != PMIX_SUCCESS ? rc : PMIx_Commit();
}

/* Waits for every process of the job; with `collect`, the values they put become readable. */
int ffp_fence(int collect)
{
	pmix_proc_t all;
	pmix_info_t info;
	bool yes = collect != 0;
	PMIX_PROC_LOAD(&all, me.nspace, PMIX_RANK_WILDCARD);
	PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
	int rc = PMIx_Fence(&all, 1, &info, 1);
	PMIX_INFO_DESTRUCT(&info);
	return rc;
}

/* Reads the `len` bytes process `rank` put under `key` into `out`. */
int ffp_get(uint32_t rank, const char *key, void *out, size_t len)
{
	pmix_proc_t p;
	pmix_value_t *v = NULL;
	PMIX_PROC_LOAD(&p, me.nspace, rank);
	int rc = PMIx_Get(&p, key, NULL, 0, &v);
	if (rc != PMIX_SUCCESS)
		return rc;
	if (v->type != PMIX_BYTE_OBJECT || v->data.bo.size != len) {
		PMIX_VALUE_RELEASE(v);
		return PMIX_ERR_BAD_PARAM;
	}
	memcpy(out, v->data.bo.bytes, len);
	PMIX_VALUE_RELEASE(v);
	return PMIX_SUCCESS;
}

/* Ends every process of the job with `code`. */
void ffp_abort(int code, const char *msg) { PMIx_Abort(code, msg, NULL, 0); }

/* Disconnects from the PMIx server. */
int ffp_finalize(void) { return PMIx_Finalize(NULL, 0); }
