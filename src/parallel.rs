//! Parallel dealing: worker threads deal and judge consecutive chunks of a run's deals, and the
//! dealing loop takes their verdicts back in deal order.
//!
//! It relies on a dealer whose deal number `i` depends only on the seed and `i` (ChaCha, see
//! [`Dealer::deals_independently`]) and on a condition that reads nothing but the deal (no
//! `rnd()`, double dummy or external metric): then judging deal `i` on any thread gives the same
//! verdict, and a run prints the same bytes whatever the number of threads. Actions still run on
//! the caller's thread, on the accepted deals in order.
//!
//! Work is handed out as chunk numbers (chunk `c` = deals `c·CHUNK ..`); at most
//! `CHUNKS_AHEAD_PER_THREAD` chunks per thread are out at once, which bounds the memory of
//! results waiting for their turn. With `n` threads, `n − 1` are workers and the caller's thread
//! is the last: while the chunk it must read next is not ready, it judges waiting chunks itself
//! (so no more threads than asked compete for the cores). Dropping a [`ParallelDealing`] stops
//! and joins the workers.

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::thread::JoinHandle;

use crate::cards::{Deal, SeatSet};
use crate::dd::DdCache;
use crate::deal_expr::StagedCondition;
use crate::dealing::Dealer;
use crate::error::{Error, ErrorKind};
use crate::eval::Evaluation;
use crate::program::{NodeId, Program};
use crate::script::ast::Vulnerability;
use crate::usereval::ExternalMetrics;

/// Deals per chunk handed to a worker.
const CHUNK: u64 = 4096;

/// Chunks out at once per thread.
const CHUNKS_AHEAD_PER_THREAD: u64 = 8;

/// A worker's stack: as much as a process's main thread usually has, so that conditions nested
/// deep enough to need it (see [`crate::stack`]) are judged alike on every thread.
const WORKER_STACK: usize = 8 << 20;

/// How often (in deals) a worker looks whether the run has ended.
const STOP_CHECK_INTERVAL: u64 = 256;

/// What a worker found in one chunk.
struct Chunk {
    number: u64,
    /// The accepted deals with their numbers (0-based), in order.
    accepted: Vec<(u64, Deal)>,
    /// The deal whose judgement failed, with the error; the chunk ends there.
    error: Option<(u64, Error)>,
}

/// A chunk whose verdicts are being reported.
struct Reading {
    /// Its accepted deals not reported yet.
    accepted: std::vec::IntoIter<(u64, Deal)>,
    error: Option<(u64, Error)>,
    /// The number after its last deal.
    end: u64,
}

/// The verdicts of the deals, in deal order, as the dealing loop reads them.
#[derive(Debug)]
pub enum Event {
    /// Deal number `.0` (0-based) satisfies the condition.
    Accepted(u64, Deal),
    /// Judging deal number `.0` failed.
    Failed(u64, Error),
    /// Every deal below this number has been reported; those not reported were rejected.
    Judged(u64),
}

/// A run's deals, dealt and judged by worker threads and the caller's.
pub struct ParallelDealing {
    tasks: Option<mpsc::Sender<u64>>,
    /// The chunk numbers not yet taken, shared with the workers.
    waiting: Arc<Mutex<mpsc::Receiver<u64>>>,
    results: mpsc::Receiver<Chunk>,
    /// The caller's thread's own judge, for chunks it takes while it waits.
    judge: Judge,
    workers: Vec<JoinHandle<()>>,
    stop: Arc<AtomicBool>,
    /// Chunks that arrived before their turn.
    early: BTreeMap<u64, Chunk>,
    /// The chunk being read.
    reading: Option<Reading>,
    next_to_read: u64,
    next_to_assign: u64,
    /// Number of deals in the run.
    limit: u64,
}

/// What a thread needs to deal and judge chunks: the run's condition and its own dealer and
/// evaluation state.
struct Judge {
    program: Arc<Program>,
    condition: NodeId,
    /// The condition as a deal expression judged seat by seat, when it is one (each thread
    /// reorders its own copy of the clauses).
    fast: Option<StagedCondition>,
    seats: SeatSet,
    limit: u64,
    stop: Arc<AtomicBool>,
    dealer: Dealer,
    dd: DdCache,
    external: ExternalMetrics,
}

impl ParallelDealing {
    /// Starts judging deals `0..limit` of `dealer` (which must deal independently, fresh from
    /// the job's start) on `threads` threads (`threads − 1` workers and the caller's) with the
    /// program's condition (`fast`, its staged deal-expression form, when there is one),
    /// dealing only `seats` before the condition is judged. `None` when the program has no
    /// condition or the system refuses a thread (the caller then deals on its own thread).
    pub fn start(
        program: Arc<Program>,
        fast: Option<StagedCondition>,
        dealer: &Dealer,
        seats: SeatSet,
        threads: usize,
        limit: u64,
    ) -> Option<ParallelDealing> {
        let condition = program.condition?;
        let (task_sender, task_receiver) = mpsc::channel();
        let (result_sender, result_receiver) = mpsc::channel();
        let waiting = Arc::new(Mutex::new(task_receiver));
        let stop = Arc::new(AtomicBool::new(false));
        let judge = || Judge {
            program: Arc::clone(&program),
            condition,
            fast: fast.clone(),
            seats,
            limit,
            stop: Arc::clone(&stop),
            dealer: dealer.clone(),
            dd: DdCache::new(1, false, Vulnerability::None),
            external: ExternalMetrics::default(),
        };
        let workers = (1..threads.max(2))
            .map(|_| {
                let (judge, waiting, results) = (judge(), Arc::clone(&waiting), result_sender.clone());
                std::thread::Builder::new()
                    .name("dealer-worker".into())
                    .stack_size(WORKER_STACK)
                    .spawn(move || work(judge, &waiting, &results))
            })
            .collect::<std::io::Result<Vec<_>>>()
            .ok()?;
        let mut parallel = ParallelDealing {
            tasks: Some(task_sender),
            waiting,
            results: result_receiver,
            judge: judge(),
            workers,
            stop,
            early: BTreeMap::new(),
            reading: None,
            next_to_read: 0,
            next_to_assign: 0,
            limit,
        };
        for _ in 0..threads.max(2) as u64 * CHUNKS_AHEAD_PER_THREAD {
            parallel.assign_next();
        }
        Some(parallel)
    }

    /// Number of chunks in the run.
    fn chunks(&self) -> u64 {
        self.limit.div_ceil(CHUNK)
    }

    /// Hands the next chunk to the workers, if any is left.
    fn assign_next(&mut self) {
        if self.next_to_assign < self.chunks() {
            if let Some(tasks) = &self.tasks {
                // A send fails only when every worker has gone; `next_event` reports that.
                let _ = tasks.send(self.next_to_assign);
            }
            self.next_to_assign += 1;
        }
    }

    /// The next verdict in deal order. After the last deal: `Judged(limit)`.
    pub fn next_event(&mut self) -> Event {
        loop {
            if let Some(reading) = &mut self.reading {
                if let Some((index, deal)) = reading.accepted.next() {
                    return Event::Accepted(index, deal);
                }
                if let Some((index, e)) = reading.error.take() {
                    return Event::Failed(index, e);
                }
                let end = reading.end;
                self.reading = None;
                return Event::Judged(end);
            }
            if self.next_to_read >= self.chunks() {
                return Event::Judged(self.limit);
            }
            let number = self.next_to_read;
            let chunk = loop {
                if let Some(chunk) = self.early.remove(&number) {
                    break chunk;
                }
                // Take what the workers have finished; failing that, judge a waiting chunk
                // here; failing that (every chunk out is being judged), wait for a worker.
                let finished = match self.results.try_recv() {
                    Ok(chunk) => Ok(chunk),
                    Err(mpsc::TryRecvError::Disconnected) => Err(()),
                    Err(mpsc::TryRecvError::Empty) => match self.take_waiting() {
                        Some(waiting) => Ok(self.judge.chunk(waiting)),
                        None => self.results.recv().map_err(|_| ()),
                    },
                };
                match finished {
                    Ok(chunk) => {
                        self.early.insert(chunk.number, chunk);
                    }
                    Err(()) => {
                        let e = Error::new(ErrorKind::Run, "the dealing threads stopped unexpectedly");
                        return Event::Failed(number * CHUNK, e);
                    }
                }
            };
            self.next_to_read += 1;
            self.assign_next();
            let end = ((number + 1) * CHUNK).min(self.limit);
            self.reading = Some(Reading { accepted: chunk.accepted.into_iter(), error: chunk.error, end });
        }
    }
}

impl ParallelDealing {
    /// The number of a chunk no thread has taken yet, taking it. `None` also when a worker
    /// holds the queue: it waits there for a chunk to be handed out, or is about to take one.
    fn take_waiting(&self) -> Option<u64> {
        let waiting = match self.waiting.try_lock() {
            Ok(waiting) => waiting,
            Err(std::sync::TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
            Err(std::sync::TryLockError::WouldBlock) => return None,
        };
        waiting.try_recv().ok()
    }
}

impl Drop for ParallelDealing {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        // Closing the task channel ends each worker's loop.
        self.tasks = None;
        for worker in self.workers.drain(..) {
            let _ = worker.join();
        }
    }
}

/// A worker: judges the chunks it takes until the task channel closes or the run stops.
fn work(mut judge: Judge, waiting: &Mutex<mpsc::Receiver<u64>>, results: &mpsc::Sender<Chunk>) {
    loop {
        let number = {
            let tasks = waiting.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            match tasks.recv() {
                Ok(number) => number,
                Err(_) => return,
            }
        };
        if results.send(judge.chunk(number)).is_err() {
            return;
        }
    }
}

impl Judge {
    /// Deals and judges chunk `number`; a panic becomes the chunk's error.
    fn chunk(&mut self, number: u64) -> Chunk {
        let judged = catch_unwind(AssertUnwindSafe(|| self.judge_chunk(number)));
        judged.unwrap_or_else(|_| Chunk {
            number,
            accepted: Vec::new(),
            error: Some((number * CHUNK, Error::new(ErrorKind::Run, "internal error in a dealing thread"))),
        })
    }

    /// Deals and judges chunk `number`.
    fn judge_chunk(&mut self, number: u64) -> Chunk {
        let first = number * CHUNK;
        let end = (first + CHUNK).min(self.limit);
        let mut chunk = Chunk { number, accepted: Vec::new(), error: None };
        let dealer = &mut self.dealer;
        dealer.seek(first);
        for index in first..end {
            if index % STOP_CHECK_INTERVAL == 0 && self.stop.load(Ordering::Relaxed) {
                break;
            }
            let Some(mut deal) = dealer.deal_seats(self.seats) else { continue };
            if let Some(fast) = &mut self.fast {
                if fast.judge(&self.program, dealer, &mut deal) {
                    dealer.complete(&mut deal);
                    chunk.accepted.push((index, deal));
                }
                continue;
            }
            let mut ev = Evaluation {
                program: &self.program,
                deal: &deal,
                dealer,
                produced: 0,
                dd: &mut self.dd,
                generated: index as i64 + 1,
                external: &mut self.external,
            };
            match ev.truth(self.condition) {
                Ok(true) => {
                    dealer.complete(&mut deal);
                    chunk.accepted.push((index, deal));
                }
                Ok(false) => {}
                Err(e) => {
                    chunk.error = Some((index, e));
                    break;
                }
            }
        }
        chunk
    }
}
