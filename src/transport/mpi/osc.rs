//! Open MPI's one-sided component for jobs that span several nodes. Open MPI 4.1 picks
//! osc/rdma for `MPI_Win_create` and `MPI_Win_allocate`, and osc/rdma needs a BTL with
//! hardware RMA and atomics to every peer: over the tcp BTL window creation fails with
//! `MPI_ERR_WIN: invalid window`. Debian's `/etc/openmpi/openmpi-mca-params.conf` excludes the
//! components that work over TCP (`osc = ^ucx,pt2pt`), so such a job would need the user to
//! name one. When the launcher says the job spans nodes (`OMPI_COMM_WORLD_LOCAL_SIZE` below
//! `OMPI_COMM_WORLD_SIZE`) and the user named no component (`--mca osc` reaches the ranks as
//! `OMPI_MCA_osc`), [`choose`] names [`ACROSS_NODES`] before `MPI_Init` reads the parameters.
//! Single-node jobs and other MPI libraries are left alone.

/// osc/sm for the node's shared window, then osc/pt2pt (RMA as messages through the pml,
/// progressed by every MPI call, the target's `MPI_Iprobe` included) for the window over all
/// ranks. osc/ucx also creates windows across the test bed's hosts, but its emulated atomics
/// progress only when the target itself enters osc/ucx (docs/ARCHITECTURE.md, "Across hosts").
pub(super) const ACROSS_NODES: &str = "sm,pt2pt";

/// Names [`ACROSS_NODES`] as Open MPI's osc components when the job spans nodes and the user
/// chose none.
pub(super) fn choose() {
    if !spans_nodes(
        std::env::var("OMPI_COMM_WORLD_SIZE").ok().as_deref(),
        std::env::var("OMPI_COMM_WORLD_LOCAL_SIZE").ok().as_deref(),
    ) || std::env::var_os("OMPI_MCA_osc").is_some()
    {
        return;
    }
    // Called before MPI_Init, while the image has no other thread: nothing reads the
    // environment concurrently.
    std::env::set_var("OMPI_MCA_osc", ACROSS_NODES);
}

/// Whether Open MPI's launcher variables describe a job with ranks on more than one node.
fn spans_nodes(size: Option<&str>, local: Option<&str>) -> bool {
    let parse = |v: Option<&str>| v.and_then(|v| v.trim().parse::<usize>().ok());
    matches!((parse(size), parse(local)), (Some(n), Some(l)) if l < n)
}

#[cfg(test)]
mod tests {
    use super::spans_nodes;

    #[test]
    fn only_a_job_with_fewer_local_ranks_than_ranks_spans_nodes() {
        assert!(spans_nodes(Some("4"), Some("2")));
        assert!(!spans_nodes(Some("4"), Some("4")));
        assert!(!spans_nodes(None, None));
        assert!(!spans_nodes(Some("4"), None));
        assert!(!spans_nodes(Some("x"), Some("1")));
    }
}
