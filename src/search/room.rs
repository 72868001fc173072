//! Address space for the search's threads and table, probed and held with the system's own
//! mappings. The allocator is no probe: glibc keeps a large block it gave back in its heap
//! (its mmap and trim thresholds rise to the largest block freed), so a reservation that
//! succeeds through it can leave no room for the thread stack mapped next.

/// Address space held, neither readable nor writable, until dropped.
pub(crate) struct Reservation {
    #[cfg(unix)]
    start: *mut libc::c_void,
    #[cfg(not(unix))]
    _held: Vec<u8>,
    bytes: usize,
}

impl Reservation {
    /// Holds `bytes` of address space (no memory is committed); `None` if the system
    /// refuses them.
    pub(crate) fn hold(bytes: usize) -> Option<Reservation> {
        #[cfg(unix)]
        {
            // SAFETY: a new anonymous mapping at an address of the system's choice: nothing
            // of ours is mapped over, and no access is allowed to it.
            let start = unsafe {
                libc::mmap(
                    std::ptr::null_mut(),
                    bytes.max(1),
                    libc::PROT_NONE,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                    -1,
                    0,
                )
            };
            (start != libc::MAP_FAILED).then_some(Reservation { start, bytes })
        }
        #[cfg(not(unix))]
        {
            let mut held = Vec::new();
            held.try_reserve_exact(bytes).ok()?;
            Some(Reservation { _held: held, bytes })
        }
    }
}

// SAFETY: the mapping belongs to the process, not to a thread: any thread may unmap it.
#[cfg(unix)]
unsafe impl Send for Reservation {}

impl Drop for Reservation {
    fn drop(&mut self) {
        #[cfg(unix)]
        // SAFETY: unmaps exactly the mapping `hold` made, which nothing else refers to.
        unsafe {
            libc::munmap(self.start, self.bytes.max(1));
        }
    }
}

/// Returns the memory the allocator keeps freed in its heap to the system (glibc's
/// `malloc_trim`), so that a thread stack can be mapped in its place.
pub(crate) fn give_back_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases free memory of the allocator's own heaps.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reservation_is_held_until_dropped() {
        let held = Reservation::hold(64 << 20).expect("64 MiB of address space");
        assert!(Reservation::hold(1 << 20).is_some());
        drop(held);
        // The whole address space (on 32-bit too, where half of it can be had).
        assert!(Reservation::hold(usize::MAX & !0xFFF).is_none());
    }
}
