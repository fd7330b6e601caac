//! Parallel dealing: worker threads deal and judge consecutive chunks of a run's deals, and the
//! dealing loop takes their verdicts back in deal order.
//!
//! It relies on a dealer whose deal number `i` depends only on the seed and `i` (ChaCha, see
//! [`Dealer::deals_independently`]) and on a condition that reads nothing but the deal (no
//! `rnd()`, double dummy or external metric): then judging deal `i` on any thread gives the same
//! verdict, and a run prints the same bytes whatever the number of threads. Actions still run on
//! the caller's thread, on the accepted deals in order.
//!
//! Work is handed out as chunk numbers (chunk `c` = deals `first + c·CHUNK ..`, `first` 0
//! for a whole run, a part's first deal number otherwise); at most
//! `CHUNKS_AHEAD_PER_THREAD` chunks per thread are out at once, which bounds the memory of
//! results waiting for their turn. With `n` threads, `n − 1` are workers and the caller's thread
//! is the last: while the chunk it must read next is not ready, it judges waiting chunks itself
//! (so no more threads than asked compete for the cores). Dropping a [`ParallelDealing`] stops
//! and joins the workers.
//!
//! When the run's actions are statistics whose adding up does not depend on the order (a
//! [`Summary`]), each thread also adds up the accepted deals of its chunks, and the dealing
//! loop takes a whole chunk's summary at once instead of its deals one by one (unless the
//! produce limit falls within the chunk): with many accepted deals, adding them up on the
//! caller's thread alone would bound the speed-up.

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::thread::JoinHandle;

use crate::cards::{Deal, SeatSet};
use crate::dd::DdCache;
use crate::dealing::Dealer;
use crate::error::{Error, ErrorKind};
use crate::external::usereval::ExternalMetrics;
use crate::program::deal_expr::StagedCondition;
use crate::program::eval::Evaluation;
use crate::program::{NodeId, Program};

/// Deals per chunk handed to a worker.
const CHUNK: u64 = 4096;

/// Chunks out at once per thread.
const CHUNKS_AHEAD_PER_THREAD: u64 = 8;

/// A worker's stack: as much as a process's main thread usually has, so that conditions nested
/// deep enough to need it (see [`crate::stack`]) are judged alike on every thread.
const WORKER_STACK: usize = 8 << 20;

/// How often (in deals) a worker looks whether the run has ended.
const STOP_CHECK_INTERVAL: u64 = 256;

/// A chunk to judge, with an empty buffer for its accepted deals: the buffer of a chunk already
/// read when there is one, so that a run reuses a few buffers instead of allocating (and
/// faulting in) fresh memory for every chunk.
struct Task {
    number: u64,
    buffer: Vec<(u64, Deal)>,
}

/// Statistics a thread adds up over the accepted deals of a chunk. Adding the summaries of
/// consecutive chunks, in order, must give what adding their deals one by one gives.
pub trait Summary: Send + 'static {
    /// An empty summary of the same statistics.
    fn empty(&self) -> Self;
    /// Counts one accepted deal.
    fn add(&mut self, program: &Program, deal: &Deal);
}

/// What a worker found in one chunk.
struct Chunk<S> {
    number: u64,
    /// The accepted deals with their numbers (0-based), in order.
    accepted: Vec<(u64, Deal)>,
    /// Their summary, when the run asked for one.
    summary: Option<S>,
    /// The deal whose judgement failed, with the error; the chunk ends there.
    error: Option<(u64, Error)>,
}

/// A chunk whose verdicts are being reported.
struct Reading {
    /// Its accepted deals, reported from `next` on.
    accepted: Vec<(u64, Deal)>,
    next: usize,
    error: Option<(u64, Error)>,
    /// The number after its last deal.
    end: u64,
}

/// The verdicts of the deals, in deal order, as the dealing loop reads them.
#[derive(Debug)]
pub enum Event<S> {
    /// Deal number `.0` (0-based) satisfies the condition.
    Accepted(u64, Deal),
    /// The summary of the deals accepted below `end` and not reported yet, `accepted` of them
    /// (at least one).
    Summarized {
        /// The number after the chunk's last deal.
        end: u64,
        /// How many deals it sums up.
        accepted: u64,
        /// Their summary.
        summary: S,
    },
    /// Judging deal number `.0` failed.
    Failed(u64, Error),
    /// Every deal below this number has been reported; those not reported were rejected.
    Judged(u64),
}

/// A run's deals, dealt and judged by worker threads and the caller's.
pub struct ParallelDealing<S: Summary> {
    tasks: Option<mpsc::Sender<Task>>,
    /// The chunks not yet taken, shared with the workers.
    waiting: Arc<Mutex<mpsc::Receiver<Task>>>,
    results: mpsc::Receiver<Chunk<S>>,
    /// The caller's thread's own judge, for chunks it takes while it waits.
    judge: Judge<S>,
    workers: Vec<JoinHandle<()>>,
    stop: Arc<AtomicBool>,
    /// Chunks that arrived before their turn.
    early: BTreeMap<u64, Chunk<S>>,
    /// The chunk being read.
    reading: Option<Reading>,
    /// Buffers of chunks already read, for the next tasks.
    spare: Vec<Vec<(u64, Deal)>>,
    next_to_read: u64,
    next_to_assign: u64,
    /// The first deal number judged.
    first: u64,
    /// One past the last deal number judged.
    limit: u64,
}

/// What a thread needs to deal and judge chunks: the run's condition and its own dealer and
/// evaluation state.
struct Judge<S> {
    setup: JudgeSetup<S>,
    dd: DdCache,
    external: ExternalMetrics,
}

/// What a thread deals and judges with, in a copy of its own.
struct JudgeSetup<S> {
    program: Arc<Program>,
    condition: NodeId,
    /// The condition as a deal expression judged seat by seat, when it is one (each thread
    /// reorders its own copy of the clauses).
    fast: Option<StagedCondition>,
    seats: SeatSet,
    /// The seats an accepted deal is completed to.
    produced_seats: SeatSet,
    /// The deal numbers judged: `first..limit`.
    first: u64,
    limit: u64,
    stop: Arc<AtomicBool>,
    dealer: Dealer,
    /// An empty summary, when the run's statistics are added up by chunk.
    summary: Option<S>,
}

impl<S: Summary> JudgeSetup<S> {
    /// A copy in memory allocated by the calling thread.
    fn copy(&self) -> JudgeSetup<S> {
        JudgeSetup {
            program: Arc::clone(&self.program),
            condition: self.condition,
            fast: self.fast.clone(),
            seats: self.seats,
            produced_seats: self.produced_seats,
            first: self.first,
            limit: self.limit,
            stop: Arc::clone(&self.stop),
            dealer: self.dealer.clone(),
            summary: self.summary.as_ref().map(S::empty),
        }
    }

    /// A judge whose state lives in memory allocated by the calling thread. A worker makes its
    /// own: what a judge writes at every deal (its dealer's words, its clauses' counts) then
    /// shares no cache line with what the caller's thread reads and writes (glibc gives each
    /// thread its own arena); made on the caller's thread and handed over, it did (false
    /// sharing), and the caller's thread ran a third slower.
    fn judge(&self) -> Judge<S> {
        Judge { setup: self.copy(), dd: DdCache::default(), external: ExternalMetrics::default() }
    }
}

impl<S: Summary> ParallelDealing<S> {
    /// Starts judging deals `deals` (numbers `first..limit`: the whole run from 0, or one part
    /// of it) of `dealer` (which must deal independently) on `threads` threads (`threads − 1` workers and the caller's) with the
    /// program's condition (`fast`, its staged deal-expression form, when there is one).
    /// `seats`: the seats dealt before the condition is judged, and those an accepted deal is
    /// completed to (the seats its consumer reads). With an empty `summary`, the threads add
    /// up the accepted deals of each chunk (see [`next_event`](Self::next_event)). `None` when
    /// the program has no condition or the system refuses a thread (the caller then deals on
    /// its own thread).
    pub fn start(
        program: Arc<Program>,
        fast: Option<StagedCondition>,
        dealer: &Dealer,
        seats: (SeatSet, SeatSet),
        threads: usize,
        deals: std::ops::Range<u64>,
        summary: Option<S>,
    ) -> Option<ParallelDealing<S>> {
        let (first, limit) = (deals.start, deals.end.max(deals.start));
        // Without the `threads` feature the caller deals on its own thread.
        if !cfg!(feature = "threads") {
            return None;
        }
        let condition = program.condition?;
        let (task_sender, task_receiver) = mpsc::channel();
        let (result_sender, result_receiver) = mpsc::channel();
        let waiting = Arc::new(Mutex::new(task_receiver));
        let stop = Arc::new(AtomicBool::new(false));
        let setup = JudgeSetup {
            program: Arc::clone(&program),
            condition,
            fast,
            seats: seats.0,
            produced_seats: seats.1,
            first,
            limit,
            stop: Arc::clone(&stop),
            dealer: dealer.clone(),
            summary,
        };
        let workers = (1..threads.max(2))
            .map(|_| {
                let (setup, waiting, results) = (setup.copy(), Arc::clone(&waiting), result_sender.clone());
                std::thread::Builder::new()
                    .name("dealer-worker".into())
                    .stack_size(WORKER_STACK)
                    .spawn(move || work(setup.judge(), &waiting, &results))
            })
            .collect::<std::io::Result<Vec<_>>>()
            .ok()?;
        let mut parallel = ParallelDealing {
            tasks: Some(task_sender),
            waiting,
            results: result_receiver,
            judge: setup.judge(),
            workers,
            stop,
            early: BTreeMap::new(),
            reading: None,
            spare: Vec::new(),
            next_to_read: 0,
            next_to_assign: 0,
            first,
            limit,
        };
        for _ in 0..threads.max(2) as u64 * CHUNKS_AHEAD_PER_THREAD {
            parallel.assign_next();
        }
        Some(parallel)
    }

    /// Number of chunks in the run (chunk `c` = deals `first + c·CHUNK ..`).
    fn chunks(&self) -> u64 {
        (self.limit - self.first).div_ceil(CHUNK)
    }

    /// Hands the next chunk to the workers, if any is left.
    fn assign_next(&mut self) {
        if self.next_to_assign < self.chunks() {
            if let Some(tasks) = &self.tasks {
                // A send fails only when every worker has gone; `next_event` reports that.
                let task = Task { number: self.next_to_assign, buffer: self.spare.pop().unwrap_or_default() };
                let _ = tasks.send(task);
            }
            self.next_to_assign += 1;
        }
    }

    /// The next verdict in deal order. After the last deal: `Judged(limit)`. A chunk with a
    /// summary and fewer accepted deals than `quota` (the deals the run may still produce)
    /// comes as one `Summarized` event.
    pub fn next_event(&mut self, quota: u64) -> Event<S> {
        loop {
            if let Some(reading) = &mut self.reading {
                if let Some(&(index, deal)) = reading.accepted.get(reading.next) {
                    reading.next += 1;
                    return Event::Accepted(index, deal);
                }
                if let Some((index, e)) = reading.error.take() {
                    return Event::Failed(index, e);
                }
                let end = reading.end;
                let mut buffer = std::mem::take(&mut reading.accepted);
                buffer.clear();
                self.spare.push(buffer);
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
                        return Event::Failed(self.first + number * CHUNK, e);
                    }
                }
            };
            self.next_to_read += 1;
            self.assign_next();
            let end = (self.first + (number + 1) * CHUNK).min(self.limit);
            let accepted = chunk.accepted.len() as u64;
            if let Some(summary) = chunk.summary.filter(|_| chunk.error.is_none() && (1..quota).contains(&accepted)) {
                let mut buffer = chunk.accepted;
                buffer.clear();
                self.spare.push(buffer);
                return Event::Summarized { end, accepted, summary };
            }
            self.reading = Some(Reading { accepted: chunk.accepted, next: 0, error: chunk.error, end });
        }
    }
}

impl<S: Summary> ParallelDealing<S> {
    /// The number of a chunk no thread has taken yet, taking it. `None` also when a worker
    /// holds the queue: it waits there for a chunk to be handed out, or is about to take one.
    fn take_waiting(&self) -> Option<Task> {
        let waiting = match self.waiting.try_lock() {
            Ok(waiting) => waiting,
            Err(std::sync::TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
            Err(std::sync::TryLockError::WouldBlock) => return None,
        };
        waiting.try_recv().ok()
    }
}

impl<S: Summary> Drop for ParallelDealing<S> {
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
fn work<S: Summary>(mut judge: Judge<S>, waiting: &Mutex<mpsc::Receiver<Task>>, results: &mpsc::Sender<Chunk<S>>) {
    loop {
        let task = {
            let tasks = waiting.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            match tasks.recv() {
                Ok(task) => task,
                Err(_) => return,
            }
        };
        if results.send(judge.chunk(task)).is_err() {
            return;
        }
    }
}

impl<S: Summary> Judge<S> {
    /// Deals and judges a task's chunk; a panic becomes the chunk's error.
    fn chunk(&mut self, task: Task) -> Chunk<S> {
        let Task { number, buffer } = task;
        let judged = catch_unwind(AssertUnwindSafe(|| self.judge_chunk(number, buffer)));
        judged.unwrap_or_else(|_| Chunk {
            number,
            accepted: Vec::new(),
            summary: None,
            error: Some((
                self.setup.first + number * CHUNK,
                Error::new(ErrorKind::Run, "internal error in a dealing thread"),
            )),
        })
    }

    /// Deals and judges chunk `number`, collecting its accepted deals in `accepted` (empty).
    fn judge_chunk(&mut self, number: u64, accepted: Vec<(u64, Deal)>) -> Chunk<S> {
        let setup = &mut self.setup;
        let first = setup.first + number * CHUNK;
        let end = (first + CHUNK).min(setup.limit);
        let summary = setup.summary.as_ref().map(S::empty);
        let mut chunk = Chunk { number, accepted, summary, error: None };
        let dealer = &mut setup.dealer;
        dealer.seek(first);
        for index in first..end {
            if index % STOP_CHECK_INTERVAL == 0 && setup.stop.load(Ordering::Relaxed) {
                break;
            }
            let Some(mut deal) = dealer.deal_seats(setup.seats) else { continue };
            if let Some(fast) = &mut setup.fast {
                if fast.judge(&setup.program, dealer, &mut deal) {
                    dealer.extend(&mut deal, setup.produced_seats);
                    chunk.accept(&setup.program, index, deal);
                }
                continue;
            }
            let mut ev = Evaluation {
                program: &setup.program,
                deal: &deal,
                dealer,
                produced: 0,
                dd: &mut self.dd,
                generated: index as i64 + 1,
                external: &mut self.external,
            };
            match ev.truth(setup.condition) {
                Ok(true) => {
                    dealer.extend(&mut deal, setup.produced_seats);
                    chunk.accept(&setup.program, index, deal);
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

impl<S: Summary> Chunk<S> {
    /// Keeps accepted deal number `index` and counts it in the summary.
    #[inline]
    fn accept(&mut self, program: &Program, index: u64, deal: Deal) {
        if let Some(summary) = &mut self.summary {
            summary.add(program, &deal);
        }
        self.accepted.push((index, deal));
    }
}
