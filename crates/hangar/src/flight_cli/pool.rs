//! Plays numbered jobs on worker threads and returns their results in job order, so a
//! simulation's output depends on its seed only, never on the thread count or scheduling.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// Runs `job(i)` for every `i` in `0..count` on `threads` threads (at least one) and returns the
/// results indexed by `i`. `tick` is called once after each job (for a progress bar).
///
/// Jobs are handed out one by one from a shared counter: games differ a lot in length, and
/// fixed chunks would leave a thread idle at the end.
pub fn run_indexed<T, J, P>(count: u64, threads: usize, job: J, tick: P) -> Vec<T>
where
    T: Send,
    J: Fn(u64) -> T + Sync,
    P: Fn() + Sync,
{
    let next = AtomicU64::new(0);
    let slots: Mutex<Vec<Option<T>>> = Mutex::new((0..count).map(|_| None).collect());
    let threads = threads.max(1);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= count {
                        break;
                    }
                    let result = job(index);
                    slots.lock().expect("a worker panicked")[index as usize] = Some(result);
                    tick();
                }
            });
        }
    });
    slots
        .into_inner()
        .expect("a worker panicked")
        .into_iter()
        .map(|slot| slot.expect("every job ran"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_back_in_job_order_for_any_thread_count() {
        for threads in [1, 2, 5] {
            let ticks = AtomicU64::new(0);
            let results = run_indexed(
                50,
                threads,
                |i| i * i,
                || {
                    ticks.fetch_add(1, Ordering::Relaxed);
                },
            );
            assert_eq!(results, (0..50).map(|i| i * i).collect::<Vec<_>>());
            assert_eq!(ticks.load(Ordering::Relaxed), 50);
        }
    }
}
