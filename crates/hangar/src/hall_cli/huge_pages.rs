//! Transparent huge pages off for the hall's process, as Redis does for the same reason.
//!
//! mimalloc asks the kernel for huge pages on its arenas (`MADV_HUGEPAGE`). Where the kernel
//! then defragments on the fault (`/sys/kernel/mm/transparent_hugepage/defrag` set to
//! `madvise`, a common default) or the host backs guest memory lazily, the first touch of each
//! fresh 2 MiB page stalls the worker that touched it: `perf` showed runs of 40–110 ms in
//! `do_huge_pmd_anonymous_page` while the heap grew under `hangar load --clients 10000
//! --think 500`, and every connection on that worker waited. With 4 KiB pages the same growth
//! costs many small faults instead (ack p99 138–159 ms → 5.5 ms; docs/benchmarks.md).

/// Turns transparent huge pages off for this process and the processes it starts (the flag is
/// kept across `fork` and `exec`). A kernel that refuses is only logged: the hall runs the
/// same, with the tail the kernel gives it.
pub fn disable() {
    #[cfg(target_os = "linux")]
    if let Err(e) = rustix::thread::disable_transparent_huge_pages(true) {
        tracing::warn!(error = %e, "transparent huge pages could not be turned off");
    }
}
