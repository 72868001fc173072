//! Signals: SIGINT, SIGTERM and SIGHUP stop a run cleanly. The handler only notes the
//! signal; the work loops check it and unwind, and the working directory is removed on the
//! way out.

use std::sync::atomic::{AtomicI32, Ordering};

/// The signal that asked the run to stop (0: none).
static SIGNAL: AtomicI32 = AtomicI32::new(0);

#[cfg(unix)]
extern "C" fn on_signal(signal: libc::c_int) {
    // Only an atomic store: the one thing a handler may safely do here.
    SIGNAL.store(signal, Ordering::Relaxed);
}

/// Makes SIGINT, SIGTERM and SIGHUP stop a run cleanly: the signal is noted, the work loops
/// return an error, and the working directory is removed on the way out. A second signal
/// of the same kind has its default effect (the handler is reset once it has run).
pub fn catch_signals() {
    #[cfg(unix)]
    for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        // SAFETY: a zeroed sigaction is a valid "no flags, empty mask" value, and the handler
        // only stores to an atomic, which is async-signal-safe.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
            action.sa_flags = libc::SA_RESTART | libc::SA_RESETHAND;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(signal, &action, std::ptr::null_mut());
        }
    }
}

/// The signal that stopped the run, if one did.
pub fn stopped_by() -> Option<i32> {
    match SIGNAL.load(Ordering::Relaxed) {
        0 => None,
        signal => Some(signal),
    }
}

/// The conventional name of a signal [`catch_signals`] handles.
pub fn signal_name(signal: i32) -> &'static str {
    #[cfg(unix)]
    match signal {
        libc::SIGINT => return "SIGINT",
        libc::SIGTERM => return "SIGTERM",
        libc::SIGHUP => return "SIGHUP",
        _ => {}
    }
    let _ = signal;
    "a signal"
}

/// An error if a signal asked the run to stop.
pub(crate) fn check_signal() -> Result<(), String> {
    match stopped_by() {
        None => Ok(()),
        Some(signal) => Err(format!(
            "keystats: stopped by {}; working files removed",
            signal_name(signal)
        )),
    }
}
