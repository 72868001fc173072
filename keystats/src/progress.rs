//! A one-line progress bar on stderr.

use std::io::{self, IsTerminal, Write};
use std::time::Instant;

use crate::report::group;

/// A one-line progress bar on stderr (redrawn with `\r` on a terminal; otherwise a line
/// every 30 s and one at the end): done of total, the rate per second, the time spent and
/// the time left at that rate.
pub(crate) struct Progress {
    enabled: bool,
    tty: bool,
    label: &'static str,
    total: u64,
    start: Instant,
    last: Instant,
}

impl Progress {
    pub(crate) fn new(enabled: bool, label: &'static str, total: u64) -> Progress {
        let now = Instant::now();
        Progress {
            enabled,
            tty: io::stderr().is_terminal(),
            label,
            total: total.max(1),
            start: now,
            last: now,
        }
    }

    pub(crate) fn update(&mut self, done: u64, note: impl FnOnce() -> String) {
        if !self.enabled {
            return;
        }
        let now = Instant::now();
        let every = if self.tty { 0.2 } else { 30.0 };
        if now.duration_since(self.last).as_secs_f64() < every {
            return;
        }
        self.last = now;
        let line = self.line(done.min(self.total), &note());
        let mut err = io::stderr().lock();
        if self.tty {
            let _ = write!(err, "\r{line}   ");
        } else {
            let _ = writeln!(err, "{line}");
        }
        let _ = err.flush();
    }

    fn line(&self, done: u64, note: &str) -> String {
        let fraction = done as f64 / self.total as f64;
        let filled = (fraction * 30.0).round() as usize;
        let elapsed = self.start.elapsed().as_secs_f64();
        let eta = if fraction > 0.0 {
            format!("{:.0} s", elapsed * (1.0 - fraction) / fraction)
        } else {
            "?".to_string()
        };
        let rate = if elapsed > 0.0 {
            group((done as f64 / elapsed) as u64)
        } else {
            "?".to_string()
        };
        format!(
            "{:<12} [{}{}] {:5.1}% {}/{} {note} ({rate}/s, {elapsed:.0} s, eta {eta})",
            self.label,
            "#".repeat(filled),
            "-".repeat(30 - filled.min(30)),
            fraction * 100.0,
            group(done),
            group(self.total),
        )
    }

    pub(crate) fn finish(&mut self, note: &str) -> f64 {
        let seconds = self.start.elapsed().as_secs_f64();
        if self.enabled {
            let mut err = io::stderr().lock();
            if self.tty {
                let _ = write!(err, "\r{}", " ".repeat(110));
            }
            let _ = writeln!(err, "\r{}: {note} in {seconds:.1} s", self.label);
        }
        seconds
    }
}
