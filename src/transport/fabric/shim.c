/* The libfabric calls of the fabric transport. libfabric's data-path calls are static inline
 * functions over provider operation tables, which Rust cannot call: this shim wraps the few
 * the transport uses behind plain functions, and keeps every libfabric structure on the C
 * side. Every function returns 0 or a negative libfabric error code (fi_strerror names it). */
#include <rdma/fabric.h>
#include <rdma/fi_atomic.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <stdio.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

/* Bytes of a receive buffer: the longest message (a notification is a 64-byte ring cell; the
 * pieces of owner-side calls fill whole buffers). 4 KiB is what the shm provider sends
 * inline. */
#define SLOT 4096
/* Receive buffers kept posted for messages. */
#define SLOTS 256
/* Completion entries read per call. */
#define BATCH 16

/* An arrival: a message of `len` bytes (kind 1) or a write's immediate data (kind 2). */
struct arrival {
	int kind;
	uint64_t data;
	size_t len;
	uint64_t msg[SLOT / 8];
};

struct ff {
	struct fi_info *info;
	struct fid_fabric *fabric;
	struct fid_domain *domain;
	struct fid_av *av;
	struct fid_cq *txcq, *rxcq;
	struct fid_ep *ep;
	struct fid_mr *mr;
	/* The counting endpoint (NULL without FI_RMA_EVENT): it receives only counted puts, and
	 * its counter counts the remote writes into it. */
	struct fid_ep *cep;
	struct fid_cq *ccq;
	struct fid_cntr *cntr;
	/* Every image's main endpoint, then (with counting) every image's counting endpoint. */
	fi_addr_t *addrs;
	size_t n;
	/* Operations posted and completed on the transmit queue. */
	uint64_t posted, completed;
	char *slots;
	/* Arrivals read from the receive queue while this process waited for its own
	 * operations (so that their buffers are posted again), in arrival order from head. */
	struct arrival *stash;
	size_t stash_head, stash_len, stash_cap;
	/* Pauses a wait for this process's own operations after `*idle` empty polls (and counts
	 * this one): the transport's policy (fabric/pause.rs: spins, then yields through the
	 * image's yield gate while yields come back fast, then naps). */
	void (*pause)(unsigned *idle);
	/* The names of the shm provider's regions of this process (name_endpoint), main endpoint
	 * then counting endpoint, "" where there is none; fixed once the endpoints are open. */
	char regions[2][64];
};

static const uint64_t CAPS = FI_RMA | FI_ATOMIC | FI_MSG | FI_READ | FI_WRITE | FI_SEND |
			     FI_RECV | FI_REMOTE_READ | FI_REMOTE_WRITE;

/* The hints: a reliable datagram endpoint with RMA, atomics and messages whose transmit
 * completions mean delivery at the target, used by one thread at a time (the transport holds
 * a lock around every call); FI_PROVIDER (read by fi_getinfo) picks among the
 * providers that fit. Memory registration: the modes this shim handles (the segment is
 * registered once; local buffers need no descriptor, so providers requiring FI_MR_LOCAL are
 * not chosen). */
static struct fi_info *hints(void)
{
	struct fi_info *h = fi_allocinfo();
	if (!h)
		return NULL;
	h->caps = CAPS;
	h->mode = 0;
	h->ep_attr->type = FI_EP_RDM;
	h->domain_attr->mr_mode =
		FI_MR_VIRT_ADDR | FI_MR_ALLOCATED | FI_MR_PROV_KEY | FI_MR_ENDPOINT;
	h->domain_attr->threading = FI_THREAD_DOMAIN;
	h->tx_attr->op_flags = FI_DELIVERY_COMPLETE;
	h->tx_attr->msg_order = FI_ORDER_SAS;
	return h;
}

const char *ff_strerror(int rc) { return fi_strerror(-rc); }

/* The providers that fit the hints, as "name1 name2 ..." into out (len bytes). */
int ff_providers(char *out, size_t len)
{
	struct fi_info *h = hints(), *list = NULL;
	if (!h)
		return -FI_ENOMEM;
	int rc = fi_getinfo(FI_VERSION(1, 17), NULL, NULL, 0, h, &list);
	fi_freeinfo(h);
	out[0] = 0;
	if (rc)
		return rc;
	for (struct fi_info *i = list; i; i = i->next) {
		const char *p = i->fabric_attr->prov_name;
		if (strstr(out, p))
			continue;
		if (strlen(out) + strlen(p) + 2 > len)
			break;
		if (out[0])
			strcat(out, " ");
		strcat(out, p);
	}
	fi_freeinfo(list);
	return 0;
}

/* Names endpoint k of this process for the shm provider, before it is enabled, and keeps the
 * name in f->regions[k]. shm's default name is "<pid>:<domain>:<endpoint>", the name of its
 * region in /dev/shm; a process that ends without closing its endpoint (a killed test) leaves
 * the region behind, and a later process given the same pid failed to open its endpoint
 * ("Device or resource busy"). The start time in the name keeps a reused pid from meeting its
 * predecessor's region. Error termination removes the names itself (fabric/regions.rs). The
 * name avoids "ferrocaf", which marks the shm transport's segments, so that the test suite
 * tells the two apart (its leak check counts a region here only once its process has ended).
 * Other providers keep their own names. */
static int name_endpoint(struct ff *f, struct fid_ep *ep, int k)
{
	if (strcmp(f->info->fabric_attr->prov_name, "shm"))
		return 0;
	struct timespec t;
	clock_gettime(CLOCK_REALTIME, &t);
	char *name = f->regions[k];
	snprintf(name, sizeof f->regions[k], "fcaf-fi-%ld-%llx-%d", (long)getpid(),
		 (unsigned long long)t.tv_sec * 1000000000ull + (unsigned long long)t.tv_nsec, k);
	return fi_setname(&ep->fid, name, strlen(name) + 1);
}

/* Reads transmit completions; returns how many or a negative error. */
static int reap(struct ff *f)
{
	struct fi_cq_entry e[BATCH];
	ssize_t got = fi_cq_read(f->txcq, e, BATCH);
	if (got > 0) {
		f->completed += got;
		return (int)got;
	}
	if (got == -FI_EAGAIN)
		return 0;
	if (got == -FI_EAVAIL) {
		struct fi_cq_err_entry err = {0};
		fi_cq_readerr(f->txcq, &err, 0);
		f->completed++;
		return -(int)(err.err ? err.err : FI_EIO);
	}
	return (int)got;
}

static int post_slot(struct ff *f, size_t i)
{
	int rc;
	do {
		rc = fi_recv(f->ep, f->slots + i * SLOT, SLOT, NULL, FI_ADDR_UNSPEC,
			     (void *)(uintptr_t)(i + 1));
		if (rc == -FI_EAGAIN && (rc = reap(f)) >= 0) {
			rc = -FI_EAGAIN;
			sched_yield();
		}
	} while (rc == -FI_EAGAIN);
	return rc;
}

/* Replaces f->info by the same provider's offer with FI_RMA_EVENT (remote writes counted), if
 * it has one whose memory regions are not bound to one endpoint; returns whether it did. */
static int want_rma_event(struct ff *f)
{
	struct fi_info *h = hints(), *list = NULL;
	if (!h)
		return 0;
	h->caps |= FI_RMA_EVENT;
	h->fabric_attr->prov_name = strdup(f->info->fabric_attr->prov_name);
	int rc = fi_getinfo(FI_VERSION(1, 17), NULL, NULL, 0, h, &list);
	fi_freeinfo(h);
	if (rc)
		return 0;
	if (list->domain_attr->mr_mode & FI_MR_ENDPOINT) {
		fi_freeinfo(list);
		return 0;
	}
	fi_freeinfo(f->info);
	f->info = list;
	return 1;
}

/* Opens the counting endpoint: bound to the address vector, a completion queue that never
 * sees an entry and a counter of the remote writes into it; its name goes to cname. */
static int open_counting(struct ff *f, void *cname, size_t *cnamelen)
{
	int rc;
	struct fi_cq_attr cq = {.format = FI_CQ_FORMAT_CONTEXT, .wait_obj = FI_WAIT_NONE};
	struct fi_cntr_attr ct = {.events = FI_CNTR_EVENTS_COMP, .wait_obj = FI_WAIT_NONE};
	if ((rc = fi_cq_open(f->domain, &cq, &f->ccq, NULL)))
		return rc;
	if ((rc = fi_cntr_open(f->domain, &ct, &f->cntr, NULL)))
		return rc;
	if ((rc = fi_endpoint(f->domain, f->info, &f->cep, NULL)))
		return rc;
	if ((rc = name_endpoint(f, f->cep, 1)))
		return rc;
	if ((rc = fi_ep_bind(f->cep, &f->av->fid, 0)))
		return rc;
	if ((rc = fi_ep_bind(f->cep, &f->ccq->fid, FI_TRANSMIT | FI_RECV)))
		return rc;
	if ((rc = fi_ep_bind(f->cep, &f->cntr->fid, FI_REMOTE_WRITE)))
		return rc;
	if ((rc = fi_enable(f->cep)))
		return rc;
	return fi_getname(&f->cep->fid, cname, cnamelen);
}

/* Opens the endpoint, registers [seg, seg + len) for remote reads, writes and atomics, posts
 * the notification receives and writes the endpoint's name (at most *namelen bytes). With
 * `counting`, and a provider offering FI_RMA_EVENT, also opens the counting endpoint and
 * writes its name to cname (*cnamelen bytes; 0 without one). Waits for this process's own
 * operations pause with `pause`. */
int ff_open(struct ff **out, void *seg, size_t len, void *name, size_t *namelen, int counting,
	    void *cname, size_t *cnamelen, void (*pause)(unsigned *idle))
{
	struct ff *f = calloc(1, sizeof *f);
	struct fi_info *h = hints();
	int rc;
	if (!f || !h)
		return -FI_ENOMEM;
	*out = f;
	f->pause = pause;
	rc = fi_getinfo(FI_VERSION(1, 17), NULL, NULL, 0, h, &f->info);
	fi_freeinfo(h);
	if (rc)
		return rc;
	counting = counting && want_rma_event(f);
	if ((rc = fi_fabric(f->info->fabric_attr, &f->fabric, NULL)))
		return rc;
	if ((rc = fi_domain(f->fabric, f->info, &f->domain, NULL)))
		return rc;
	struct fi_cq_attr tx = {.format = FI_CQ_FORMAT_CONTEXT, .wait_obj = FI_WAIT_NONE};
	struct fi_cq_attr rx = {.format = FI_CQ_FORMAT_DATA, .wait_obj = FI_WAIT_NONE};
	struct fi_av_attr av = {.type = FI_AV_TABLE};
	if ((rc = fi_cq_open(f->domain, &tx, &f->txcq, NULL)))
		return rc;
	if ((rc = fi_cq_open(f->domain, &rx, &f->rxcq, NULL)))
		return rc;
	if ((rc = fi_av_open(f->domain, &av, &f->av, NULL)))
		return rc;
	if ((rc = fi_endpoint(f->domain, f->info, &f->ep, NULL)))
		return rc;
	if ((rc = name_endpoint(f, f->ep, 0)))
		return rc;
	if ((rc = fi_ep_bind(f->ep, &f->av->fid, 0)))
		return rc;
	if ((rc = fi_ep_bind(f->ep, &f->txcq->fid, FI_TRANSMIT)))
		return rc;
	if ((rc = fi_ep_bind(f->ep, &f->rxcq->fid, FI_RECV)))
		return rc;
	if ((rc = fi_enable(f->ep)))
		return rc;
	uint64_t access = FI_REMOTE_READ | FI_REMOTE_WRITE | FI_READ | FI_WRITE;
	if ((rc = fi_mr_reg(f->domain, seg, len, access, 0, 0, 0, &f->mr, NULL)))
		return rc;
	if (f->info->domain_attr->mr_mode & FI_MR_ENDPOINT) {
		if ((rc = fi_mr_bind(f->mr, &f->ep->fid, 0)))
			return rc;
		if ((rc = fi_mr_enable(f->mr)))
			return rc;
	}
	f->slots = calloc(SLOTS, SLOT);
	if (!f->slots)
		return -FI_ENOMEM;
	for (size_t i = 0; i < SLOTS; i++)
		if ((rc = post_slot(f, i)))
			return rc;
	if (!counting)
		*cnamelen = 0;
	else if ((rc = open_counting(f, cname, cnamelen)))
		return rc;
	return fi_getname(&f->ep->fid, name, namelen);
}

/* The provider's name. */
const char *ff_provider(const struct ff *f) { return f->info->fabric_attr->prov_name; }

/* The remote key of the segment. */
uint64_t ff_key(const struct ff *f) { return fi_mr_key(f->mr); }

/* Whether remote addresses are virtual addresses (else offsets into the region). */
int ff_virt_addr(const struct ff *f)
{
	return (f->info->domain_attr->mr_mode & FI_MR_VIRT_ADDR) != 0;
}

/* Bytes of immediate data a write can carry. */
size_t ff_cq_data_size(const struct ff *f) { return f->info->domain_attr->cq_data_size; }

/* Entries per side of one fi_writemsg/fi_readmsg. */
size_t ff_iov_limit(const struct ff *f)
{
	size_t a = f->info->tx_attr->iov_limit, b = f->info->tx_attr->rma_iov_limit;
	return a < b ? a : b;
}

/* Whether the provider's data progress is automatic. */
int ff_auto_progress(const struct ff *f)
{
	return f->info->domain_attr->data_progress == FI_PROGRESS_AUTO;
}

/* Inserts the k endpoint names (namelen bytes each: the n images' main endpoints in image
 * order, then with counting their counting endpoints) into the address vector. */
int ff_insert(struct ff *f, const void *names, size_t namelen, size_t n, size_t k)
{
	(void)namelen;
	f->addrs = calloc(k, sizeof *f->addrs);
	if (!f->addrs)
		return -FI_ENOMEM;
	f->n = n;
	int rc = fi_av_insert(f->av, names, k, f->addrs, 0, NULL);
	if (rc < 0)
		return rc;
	return rc == (int)k ? 0 : -FI_EADDRNOTAVAIL;
}

/* Remote writes into this image's counting endpoint so far, plus ff_count_add's (0 without
 * one). Reading the counter also progresses the counting endpoint. */
uint64_t ff_counted(struct ff *f) { return f->cntr ? fi_cntr_read(f->cntr) : 0; }

/* Adds one to this image's own counter (a counted put into its own memory). */
int ff_count_add(struct ff *f) { return fi_cntr_add(f->cntr, 1); }

/* Reads one receive completion: 1 with a message copied to `msg` (SLOT bytes; its length in
 * *len, its buffer posted again), 2 with a write's immediate data in *data, 0 when none is
 * there. */
static int read_rx(struct ff *f, void *msg, size_t *len, uint64_t *data)
{
	struct fi_cq_data_entry e;
	ssize_t got = fi_cq_read(f->rxcq, &e, 1);
	if (got == -FI_EAGAIN)
		return 0;
	if (got == -FI_EAVAIL) {
		struct fi_cq_err_entry err = {0};
		fi_cq_readerr(f->rxcq, &err, 0);
		return -(int)(err.err ? err.err : FI_EIO);
	}
	if (got < 0)
		return (int)got;
	if (e.flags & FI_RECV) {
		size_t i = (uintptr_t)e.op_context - 1;
		*len = e.len < SLOT ? e.len : SLOT;
		memcpy(msg, f->slots + i * SLOT, *len);
		int rc = post_slot(f, i);
		return rc ? rc : 1;
	}
	if (e.flags & FI_REMOTE_CQ_DATA) {
		*data = e.data;
		return 2;
	}
	return 0;
}

/* Moves every arrival in the receive queue to the stash (reposting the message buffers), and
 * progresses the counting endpoint: a process that waits for its own operations must keep
 * receiving, or two processes sending to each other with every buffer full (or counting puts
 * into each other) would wait for each other for ever. */
static int stash_rx(struct ff *f)
{
	if (f->cntr)
		fi_cntr_read(f->cntr);
	for (;;) {
		if (f->stash_len == f->stash_cap) {
			size_t cap = f->stash_cap ? 2 * f->stash_cap : 64;
			struct arrival *a = realloc(f->stash, cap * sizeof *a);
			if (!a)
				return -FI_ENOMEM;
			f->stash = a;
			f->stash_cap = cap;
		}
		struct arrival *a = &f->stash[f->stash_len];
		int rc = read_rx(f, a->msg, &a->len, &a->data);
		if (rc <= 0)
			return rc;
		a->kind = rc;
		f->stash_len++;
	}
}

/* Reads one arrival, stashed ones first: 1 with a message copied to `msg` (SLOT bytes; its
 * length in *len), 2 with a write's immediate data in *data, 0 when none is there. */
int ff_receive(struct ff *f, void *msg, size_t *len, uint64_t *data)
{
	if (f->stash_head < f->stash_len) {
		struct arrival *a = &f->stash[f->stash_head++];
		int kind = a->kind;
		if (kind == 1)
			memcpy(msg, a->msg, a->len);
		*len = a->len;
		*data = a->data;
		if (f->stash_head == f->stash_len)
			f->stash_head = f->stash_len = 0;
		return kind;
	}
	return read_rx(f, msg, len, data);
}

/* Waits until every posted operation has completed. */
int ff_wait(struct ff *f)
{
	unsigned idle = 0;
	while (f->completed < f->posted) {
		int rc = reap(f);
		if (rc == 0)
			rc = stash_rx(f);
		if (rc < 0)
			return rc;
		if (rc == 0)
			f->pause(&idle);
	}
	return 0;
}

/* Retries a post while the provider asks to (progressing the transmit queue meanwhile). */
#define POST(f, call)                                                                            \
	do {                                                                                     \
		ssize_t rc_;                                                                     \
		unsigned idle_ = 0;                                                              \
		while ((rc_ = (call)) == -FI_EAGAIN) {                                           \
			int r_ = reap(f);                                                        \
			if (r_ >= 0)                                                             \
				r_ = stash_rx(f);                                                \
			if (r_ < 0)                                                              \
				return r_;                                                       \
			(f)->pause(&idle_);                                                      \
		}                                                                                \
		if (rc_)                                                                         \
			return (int)rc_;                                                         \
		(f)->posted++;                                                                   \
	} while (0)

/* One write (write != 0) or read between n local (addr, len) pieces and m remote (addr, len)
 * pieces of image `peer`'s region (key), both sides the same total. With `to` = 1, the
 * write's immediate `data` arrives in the target's receive completion queue; with `to` = 2
 * the write goes to the target's counting endpoint, whose counter it increments. Posted, not
 * waited for. */
int ff_rma(struct ff *f, int write, size_t peer, const struct iovec *local, size_t n,
	   const struct fi_rma_iov *remote, size_t m, uint64_t data, int to)
{
	uint64_t flags = to == 1 ? FI_REMOTE_CQ_DATA : 0;
	struct fi_msg_rma msg = {
		.msg_iov = local,
		.desc = NULL,
		.iov_count = n,
		.addr = f->addrs[to == 2 ? f->n + peer : peer],
		.rma_iov = remote,
		.rma_iov_count = m,
		.context = NULL,
		.data = data,
	};
	flags |= FI_COMPLETION;
	if (write)
		POST(f, fi_writemsg(f->ep, &msg, flags | FI_DELIVERY_COMPLETE));
	else
		POST(f, fi_readmsg(f->ep, &msg, flags));
	return 0;
}

/* Sends the message of `len` bytes (at most SLOT) at `buf` to `peer` (delivered when its
 * completion is reaped). */
int ff_send(struct ff *f, size_t peer, const void *buf, size_t len)
{
	if (len > SLOT)
		return -FI_EMSGSIZE;
	struct iovec iov = {.iov_base = (void *)buf, .iov_len = len};
	struct fi_msg msg = {
		.msg_iov = &iov, .desc = NULL, .iov_count = 1, .addr = f->addrs[peer],
		.context = NULL, .data = 0};
	POST(f, fi_sendmsg(f->ep, &msg, FI_COMPLETION | FI_DELIVERY_COMPLETE));
	return 0;
}

static const enum fi_op OPS[] = {FI_SUM, FI_BAND, FI_BOR, FI_BXOR, FI_ATOMIC_WRITE,
				 FI_ATOMIC_READ};

static enum fi_datatype dtype(int width) { return width == 4 ? FI_UINT32 : FI_UINT64; }

/* Whether the provider has every fetching atomic and the compare-and-swap the transport uses,
 * on 4- and 8-byte unsigned words. */
int ff_atomics_valid(struct ff *f)
{
	for (int w = 4; w <= 8; w += 4) {
		size_t count = 0;
		for (size_t k = 0; k < sizeof OPS / sizeof *OPS; k++)
			if (fi_fetch_atomicvalid(f->ep, dtype(w), OPS[k], &count) || count < 1)
				return 0;
		if (fi_compare_atomicvalid(f->ep, dtype(w), FI_CSWAP, &count) || count < 1)
			return 0;
	}
	return 1;
}

/* Fetching atomic `op` (index into OPS) on the `width`-byte word at `addr` of `peer`'s
 * region; the old value is in *old once completed (waited for here). */
int ff_fetch(struct ff *f, size_t peer, uint64_t addr, uint64_t key, int width, int op,
	     const void *operand, void *old)
{
	POST(f, fi_fetch_atomic(f->ep, operand, 1, NULL, old, NULL, f->addrs[peer], addr, key,
				dtype(width), OPS[op], NULL));
	return ff_wait(f);
}

/* Compare-and-swap of the `width`-byte word at `addr` of `peer`'s region. */
int ff_cswap(struct ff *f, size_t peer, uint64_t addr, uint64_t key, int width,
	     const void *expected, const void *desired, void *old)
{
	POST(f, fi_compare_atomic(f->ep, desired, 1, NULL, expected, NULL, old, NULL,
				  f->addrs[peer], addr, key, dtype(width), FI_CSWAP, NULL));
	return ff_wait(f);
}

/* The name of endpoint k's shm region (0: main, 1: counting), "" where there is none. */
const char *ff_region(const struct ff *f, int k)
{
	return f->regions[k];
}

/* Closes everything ff_open opened. */
void ff_close(struct ff *f)
{
	if (f->ep)
		fi_close(&f->ep->fid);
	if (f->cep)
		fi_close(&f->cep->fid);
	if (f->cntr)
		fi_close(&f->cntr->fid);
	if (f->ccq)
		fi_close(&f->ccq->fid);
	if (f->mr)
		fi_close(&f->mr->fid);
	if (f->av)
		fi_close(&f->av->fid);
	if (f->rxcq)
		fi_close(&f->rxcq->fid);
	if (f->txcq)
		fi_close(&f->txcq->fid);
	if (f->domain)
		fi_close(&f->domain->fid);
	if (f->fabric)
		fi_close(&f->fabric->fid);
	if (f->info)
		fi_freeinfo(f->info);
	free(f->addrs);
	free(f->slots);
	free(f->stash);
	free(f);
}
