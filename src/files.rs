//! The files a user names for the engine to read (a book, a table), opened only when they
//! are regular files: opening a FIFO waits for a writer, and reading a device may never
//! end, which would hold the thread that asked (the protocol's, for a `setoption`).

use std::fs::{File, Metadata, OpenOptions};
use std::io;
use std::path::Path;

/// Why a file was not opened.
#[derive(Debug)]
pub(crate) enum Refused {
    /// It is not a regular file (a directory, a FIFO, a device, a socket).
    NotRegular,
    /// It could not be examined or opened.
    Io(io::Error),
}

/// Opens `path` for reading if it is a regular file, and gives its length. The name is
/// examined first; then it is opened without waiting (a FIFO put in its place meanwhile
/// opens at once instead of waiting for a writer, and no terminal becomes the process's)
/// and the file opened is examined again, so that whatever the name becomes in between,
/// no call here blocks and only a regular file is returned, reading as usual (blocking).
pub(crate) fn open_regular(path: &Path) -> Result<(File, u64), Refused> {
    let regular = |meta: Metadata| {
        if meta.is_file() {
            Ok(meta.len())
        } else {
            Err(Refused::NotRegular)
        }
    };
    regular(std::fs::metadata(path).map_err(Refused::Io)?)?;
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(
        &mut options,
        libc::O_NONBLOCK | libc::O_NOCTTY,
    );
    let file = options.open(path).map_err(Refused::Io)?;
    let len = regular(file.metadata().map_err(Refused::Io)?)?;
    #[cfg(unix)]
    set_blocking(&file).map_err(Refused::Io)?;
    Ok((file, len))
}

/// Clears the file's `O_NONBLOCK` (which a regular file ignores, but a reader of the file
/// should not inherit).
#[cfg(unix)]
fn set_blocking(file: &File) -> io::Result<()> {
    use std::os::fd::AsRawFd;
    let fd = file.as_raw_fd();
    // SAFETY: reads the status flags of a descriptor `file` owns and keeps open.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if flags < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: sets the status flags of the same descriptor, only O_NONBLOCK changed.
    if unsafe { libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_regular_files_open() {
        let dir = std::env::temp_dir().join(format!("ccr-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("f");
        std::fs::write(&file, b"12345").unwrap();
        let (_, len) = open_regular(&file).expect("a regular file opens");
        assert_eq!(len, 5);
        assert!(matches!(open_regular(&dir), Err(Refused::NotRegular)));
        assert!(matches!(
            open_regular(&dir.join("missing")),
            Err(Refused::Io(_))
        ));
        #[cfg(unix)]
        {
            let fifo = dir.join("fifo");
            let name = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
            // SAFETY: mkfifo reads the NUL-terminated name only.
            assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
            // No writer: opening it would block; it is refused at once instead.
            assert!(matches!(open_regular(&fifo), Err(Refused::NotRegular)));
            assert!(matches!(
                open_regular(Path::new("/dev/null")),
                Err(Refused::NotRegular)
            ));
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
