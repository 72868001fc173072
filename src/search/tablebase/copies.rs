//! The tables the prober reads, as the very files that were checked: the prober opens a
//! table by name and maps it at its first probe, long after the file was checked, so it is
//! given a private directory of links, `NAME` to `/proc/self/fd/N`, each a descriptor held
//! since the check. A set of up to [`COPY_LIMIT`] bytes is read through copies in sealed
//! memory (Linux memfds) that nothing can change: whatever then happens to the files the
//! user named (rewritten, truncated, replaced, removed) cannot reach the tables in use. A
//! larger set (six and seven pieces, tens of gigabytes) is read from the checked files
//! themselves, held open: renaming or removing them changes nothing, rewriting one in place
//! reaches the prober.

use std::ffi::CString;
use std::fs::File;
use std::io::{self, Read, Seek};
use std::os::fd::{AsRawFd, FromRawFd};
use std::os::unix::fs::{DirBuilderExt, MetadataExt};
use std::path::{Path, PathBuf};

/// The largest set of tables copied into memory: every table of up to four pieces is 4.3 MB
/// (WDL and DTZ), with those of five 939 MB, which stay on disk like any larger set.
pub(super) const COPY_LIMIT: u64 = 256 << 20;

/// The tables read (sealed copies or the checked files) and the directory of links to them.
#[derive(Debug)]
pub(super) struct Copies {
    /// The links' directory, made for this set and removed with it.
    dir: PathBuf,
    /// Whether the tables are copied into memory.
    copying: bool,
    /// The tables, open while the prober may map them.
    files: Vec<File>,
}

impl Copies {
    /// An empty set of `bytes` of tables (copied if that is within [`COPY_LIMIT`] and
    /// memory has room) with its directory of links, made under the temporary directory
    /// (where the directories of processes that ended without removing theirs are removed
    /// first).
    pub(super) fn new(bytes: u64) -> Result<Copies, String> {
        let copying =
            bytes <= COPY_LIMIT && available_memory().is_none_or(|free| bytes <= free / 2);
        let base = std::env::temp_dir();
        sweep(&base);
        for attempt in 0..100 {
            let dir = base.join(format!("{PREFIX}{}-{attempt}", std::process::id()));
            match std::fs::DirBuilder::new().mode(0o700).create(&dir) {
                Ok(()) => {
                    return Ok(Copies {
                        dir,
                        copying,
                        files: Vec::new(),
                    });
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(links_error(&dir, &e)),
            }
        }
        Err(format!(
            "cannot make a directory for the tables' links in '{}'",
            base.display()
        ))
    }

    /// The path to hand the prober: the directory of links.
    pub(super) fn path(&self) -> Option<String> {
        Some(self.dir.display().to_string())
    }

    /// Whether the tables are read through copies in memory.
    pub(super) fn copying(&self) -> bool {
        self.copying
    }

    /// What the prober is to read of `source` (named `name` in messages), from its start: a
    /// sealed copy of its first `len` bytes (no write, no change of length, no new seal is
    /// possible after), or, for a set too large to copy, `source` itself.
    pub(super) fn copy(&self, name: &str, source: &File, len: u64) -> Result<File, String> {
        if !self.copying {
            let mut file = source
                .try_clone()
                .map_err(|e| format!("cannot read '{name}': {e}"))?;
            file.rewind()
                .map_err(|e| format!("cannot read '{name}': {e}"))?;
            return Ok(file);
        }
        let failed = |e: io::Error| format!("cannot copy '{name}': {e}");
        let mut source = source;
        source.rewind().map_err(failed)?;
        let copy = memfd(name).map_err(failed)?;
        let copied = io::copy(&mut source.take(len), &mut &copy).map_err(failed)?;
        if copied != len {
            return Err(format!("'{name}' changed while it was read"));
        }
        seal(&copy).map_err(|e| format!("cannot seal the copy of '{name}': {e}"))?;
        (&copy)
            .rewind()
            .map_err(|e| format!("cannot read the copy of '{name}': {e}"))?;
        Ok(copy)
    }

    /// Links `copy` as `name` in the directory and keeps it, after checking that the link
    /// opens the copy itself (it does only where `/proc` is the process's own).
    pub(super) fn link(&mut self, name: &str, copy: File) -> Result<(), String> {
        let link = self.dir.join(name);
        let target = format!("/proc/self/fd/{}", copy.as_raw_fd());
        std::os::unix::fs::symlink(&target, &link).map_err(|e| links_error(&link, &e))?;
        let same =
            |a: &std::fs::Metadata, b: &std::fs::Metadata| (a.dev(), a.ino()) == (b.dev(), b.ino());
        let reached = File::open(&link).and_then(|f| f.metadata());
        match (reached, copy.metadata()) {
            (Ok(reached), Ok(own)) if same(&reached, &own) => {
                self.files.push(copy);
                Ok(())
            }
            _ => Err(format!(
                "cannot reach the copy of '{name}' through {target} (is /proc mounted?)"
            )),
        }
    }
}

impl Drop for Copies {
    fn drop(&mut self) {
        // Only links are inside; the copies go when their descriptors close.
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The start of a directory of links' name, before the process id.
const PREFIX: &str = "ccr-syzygy-";

/// Removes the directories of links in `base` whose process is gone (one killed has no
/// chance to remove its own); others' that are not ours to remove stay.
fn sweep(base: &Path) {
    let Ok(entries) = std::fs::read_dir(base) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let pid = name
            .to_str()
            .and_then(|n| n.strip_prefix(PREFIX))
            .and_then(|rest| rest.split('-').next())
            .and_then(|pid| pid.parse::<u32>().ok());
        if pid.is_some_and(|pid| !Path::new(&format!("/proc/{pid}")).exists()) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// The message for a failure to make the directory of links or a link in it.
fn links_error(path: &Path, e: &io::Error) -> String {
    format!("cannot make '{}' for the tables: {e}", path.display())
}

/// A new memfd that may be sealed, closed on exec.
fn memfd(name: &str) -> io::Result<File> {
    let name = CString::new(name).map_err(|_| io::Error::other("a NUL in the name"))?;
    // SAFETY: memfd_create reads the NUL-terminated name only and returns a new descriptor
    // (or -1), which nothing else owns.
    let fd =
        unsafe { libc::memfd_create(name.as_ptr(), libc::MFD_CLOEXEC | libc::MFD_ALLOW_SEALING) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `fd` is open and owned by nothing else: the File takes it over.
    Ok(unsafe { File::from_raw_fd(fd) })
}

/// Seals `copy` against writes, changes of length and further seals.
fn seal(copy: &File) -> io::Result<()> {
    let seals = libc::F_SEAL_WRITE | libc::F_SEAL_SHRINK | libc::F_SEAL_GROW | libc::F_SEAL_SEAL;
    // SAFETY: adds seals to a memfd `copy` owns and keeps open; no memory is passed.
    if unsafe { libc::fcntl(copy.as_raw_fd(), libc::F_ADD_SEALS, seals) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// The memory the system says it can give without swapping (`MemAvailable` of
/// `/proc/meminfo`), in bytes; `None` where it does not say.
fn available_memory() -> Option<u64> {
    parse_available(&std::fs::read_to_string("/proc/meminfo").ok()?)
}

/// `MemAvailable` of a `/proc/meminfo` text, in bytes.
fn parse_available(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_are_sealed_and_linked() {
        let source_path = std::env::temp_dir().join(format!("ccr-copy-{}", std::process::id()));
        std::fs::write(&source_path, b"0123456789").unwrap();
        let source = File::open(&source_path).unwrap();
        let mut copies = Copies::new(8).unwrap();
        assert!(copies.copying());
        let copy = copies.copy("T.rtbw", &source, 8).unwrap();
        let mut text = String::new();
        (&copy).read_to_string(&mut text).unwrap();
        assert_eq!(text, "01234567");
        assert!(copy.set_len(2).is_err(), "a sealed copy keeps its length");
        copies.link("T.rtbw", copy).unwrap();
        // The source truncated and removed: the link still reads the copy.
        std::fs::write(&source_path, b"").unwrap();
        std::fs::remove_file(&source_path).unwrap();
        let dir = PathBuf::from(copies.path().unwrap());
        assert_eq!(std::fs::read(dir.join("T.rtbw")).unwrap(), b"01234567");
        drop(copies);
        assert!(!dir.exists(), "the links go with the copies");
    }

    #[test]
    fn a_set_too_large_to_copy_is_read_from_the_checked_files() {
        let dir = std::env::temp_dir().join(format!("ccr-uncopied-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let source_path = dir.join("T.rtbw");
        std::fs::write(&source_path, b"0123456789").unwrap();
        let source = File::open(&source_path).unwrap();
        let mut copies = Copies::new(COPY_LIMIT + 1).unwrap();
        assert!(!copies.copying());
        let file = copies.copy("T.rtbw", &source, 10).unwrap();
        copies.link("T.rtbw", file).unwrap();
        // The name given another file and the checked one removed: the link still reads
        // the file that was checked.
        std::fs::write(dir.join("other"), b"xx").unwrap();
        std::fs::rename(dir.join("other"), &source_path).unwrap();
        std::fs::remove_file(&source_path).unwrap();
        let links = PathBuf::from(copies.path().unwrap());
        assert_eq!(std::fs::read(links.join("T.rtbw")).unwrap(), b"0123456789");
        drop(copies);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_links_of_an_ended_process_are_removed() {
        // No process has this id (above every pid_max).
        let stale = std::env::temp_dir().join(format!("{PREFIX}4000000000-0"));
        // Made whole under another name and renamed into place: another test's sweep may
        // remove it at any moment once it has its name.
        let making = std::env::temp_dir().join(format!("ccr-stale-{}", std::process::id()));
        std::fs::create_dir_all(&making).unwrap();
        std::os::unix::fs::symlink("/proc/self/fd/0", making.join("KQvK.rtbw")).unwrap();
        let _ = std::fs::remove_dir_all(&stale);
        std::fs::rename(&making, &stale).unwrap();
        let ours = Copies::new(0).unwrap();
        assert!(!stale.exists(), "a dead process's links are removed");
        assert!(Path::new(&ours.path().unwrap()).is_dir());
        let other = Copies::new(0).unwrap();
        assert!(
            Path::new(&ours.path().unwrap()).is_dir(),
            "a live one's stay"
        );
        drop((ours, other));
    }

    #[test]
    fn available_memory_is_read_from_meminfo() {
        let text = "MemTotal:       16000000 kB\nMemFree:  100 kB\nMemAvailable:    2048 kB\n";
        assert_eq!(parse_available(text), Some(2048 * 1024));
        assert_eq!(parse_available("MemTotal: 5 kB\n"), None);
    }
}
