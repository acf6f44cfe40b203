//! Open MPI's one-sided component for jobs that span several nodes. Open MPI 4.1 picks
//! osc/rdma for `MPI_Win_create` and `MPI_Win_allocate`, and osc/rdma needs a BTL with
//! hardware RMA and atomics to every peer: over the tcp BTL window creation fails with
//! `MPI_ERR_WIN: invalid window`. Debian's `/etc/openmpi/openmpi-mca-params.conf` excludes the
//! components that work over TCP (`osc = ^ucx,pt2pt`), so such a job would need the user to
//! name one. When the launcher says the job spans nodes (`OMPI_COMM_WORLD_LOCAL_SIZE` below
//! `OMPI_COMM_WORLD_SIZE`), the library is Open MPI 4 or older and the user named no component
//! (`--mca osc` reaches the ranks as `OMPI_MCA_osc`), [`choose`] names [`ACROSS_NODES`] before
//! `MPI_Init` reads the parameters. Open MPI 5 removed osc/pt2pt, and its osc/rdma emulates RMA
//! and atomics over BTLs that lack them (the tcp BTL's active messages), so its default choice
//! works across nodes and is left alone, as are single-node jobs and other MPI libraries
//! (docs/ARCHITECTURE.md, "Across hosts").

/// osc/sm for the node's shared window, then osc/pt2pt (RMA as messages through the pml,
/// progressed by every MPI call, the target's `MPI_Iprobe` included) for the window over all
/// ranks. osc/ucx also creates windows across the test bed's hosts, but its emulated atomics
/// progress only when the target itself enters osc/ucx (docs/ARCHITECTURE.md, "Across hosts").
pub(super) const ACROSS_NODES: &str = "sm,pt2pt";

/// The first Open MPI release without osc/pt2pt.
const WITHOUT_PT2PT: u32 = 5;

/// Names [`ACROSS_NODES`] as Open MPI's osc components when the job spans nodes, the library
/// (`library`, its `MPI_Get_library_version` head) is an Open MPI that still has osc/pt2pt
/// and the user chose no component.
pub(super) fn choose(library: &str) {
    if !spans_nodes(
        std::env::var("OMPI_COMM_WORLD_SIZE").ok().as_deref(),
        std::env::var("OMPI_COMM_WORLD_LOCAL_SIZE").ok().as_deref(),
    ) || open_mpi_major(library).is_none_or(|m| m >= WITHOUT_PT2PT)
        || std::env::var_os("OMPI_MCA_osc").is_some()
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

/// The major version of an Open MPI library named `Open MPI v<major>.<minor>...`; None for
/// other libraries.
fn open_mpi_major(library: &str) -> Option<u32> {
    let version = library.strip_prefix("Open MPI v")?;
    let major: String = version.chars().take_while(char::is_ascii_digit).collect();
    major.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::{open_mpi_major, spans_nodes};

    #[test]
    fn only_a_job_with_fewer_local_ranks_than_ranks_spans_nodes() {
        assert!(spans_nodes(Some("4"), Some("2")));
        assert!(!spans_nodes(Some("4"), Some("4")));
        assert!(!spans_nodes(None, None));
        assert!(!spans_nodes(Some("4"), None));
        assert!(!spans_nodes(Some("x"), Some("1")));
    }

    #[test]
    fn open_mpi_versions_are_read_from_the_library_name() {
        assert_eq!(open_mpi_major("Open MPI v4.1.4"), Some(4));
        assert_eq!(open_mpi_major("Open MPI v6.0.0rc2"), Some(6));
        assert_eq!(open_mpi_major("Open MPI v10.0"), Some(10));
        assert_eq!(open_mpi_major("MPICH Version: 4.0.2"), None);
        assert_eq!(open_mpi_major("Open MPI vx"), None);
    }
}
