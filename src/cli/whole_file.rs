//! Results written whole: the text goes to a temporary file beside the output, which is then
//! renamed into place, so that a reader sees all of it or none of it. The name given is
//! resolved first: a symbolic link stays a link and the file it points to gets the result.
//! A name that exists and is not a regular file (a FIFO, a device, a directory, a socket) is
//! refused, since a rename would replace that node itself (as root, `/dev/null` for every
//! process); so are a symbolic link to nothing and a descriptor of the process reached
//! through `/proc` (`/dev/stdout`), which may be a file opened for appending.

use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::Failure;

/// An output file written whole (see the module's documentation).
pub struct WholeFile {
    /// The option that named it, for the errors.
    option: &'static str,
    /// The name as given.
    given: PathBuf,
}

impl WholeFile {
    /// Checks, before any work, that `given` can take a result: it is a regular file or
    /// missing (symbolic links followed), and its directory takes a temporary file.
    pub fn check(option: &'static str, given: &Path) -> Result<WholeFile, Failure> {
        let out = WholeFile {
            option,
            given: given.to_path_buf(),
        };
        let target = out.target()?;
        let temporary = temporary(&target);
        create(&temporary)
            .and_then(|_| fs::remove_file(&temporary))
            .map_err(|e| out.cannot(&e))?;
        Ok(out)
    }

    /// Writes `contents` to a temporary file beside the target and renames it over the
    /// target (resolved again: the file may have changed since [`WholeFile::check`]).
    pub fn write(&self, contents: impl AsRef<[u8]>) -> Result<(), Failure> {
        let target = self.target()?;
        let temporary = temporary(&target);
        let written = create(&temporary).and_then(|mut file| {
            file.write_all(contents.as_ref())?;
            file.sync_all()?;
            fs::rename(&temporary, &target)
        });
        written.map_err(|e| {
            let _ = fs::remove_file(&temporary);
            self.cannot(&e)
        })
    }

    /// The file the given name stands for: the name itself if nothing is there, else the
    /// regular file it is or points to.
    fn target(&self) -> Result<PathBuf, Failure> {
        if through_descriptor(&self.given) {
            return Err(
                self.refuse("is a descriptor of the process (through /proc), not a file name")
            );
        }
        match fs::metadata(&self.given) {
            Ok(meta) if meta.is_file() => self.given.canonicalize().map_err(|e| self.cannot(&e)),
            Ok(meta) => {
                let resolved = self
                    .given
                    .canonicalize()
                    .ok()
                    .filter(|resolved| *resolved != self.given)
                    .map(|resolved| format!(" ({})", resolved.display()))
                    .unwrap_or_default();
                Err(self.refuse(&format!(
                    "is a {}{resolved}, not a regular file",
                    kind(&meta.file_type())
                )))
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                if fs::symlink_metadata(&self.given).is_ok() {
                    Err(self.refuse("is a symbolic link to nothing"))
                } else if self.given.file_name().is_none() {
                    Err(self.refuse("names no file"))
                } else {
                    Ok(self.given.clone())
                }
            }
            Err(e) => Err(self.cannot(&e)),
        }
    }

    fn refuse(&self, why: &str) -> Failure {
        Failure(format!("{} {}: {why}", self.option, self.given.display()))
    }

    fn cannot(&self, e: &io::Error) -> Failure {
        self.refuse(&format!("cannot write: {e}"))
    }
}

/// Whether `path` or a symbolic link it leads to lies in `/proc` (`/dev/stdout`,
/// `/dev/fd/N`): such a link names whatever the descriptor holds, maybe a file opened for
/// appending, which a rename would replace.
fn through_descriptor(path: &Path) -> bool {
    let mut path = path.to_path_buf();
    // The kernel's limit on links followed in one lookup.
    for _ in 0..40 {
        let parent = match path.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            _ => Path::new("."),
        };
        if parent
            .canonicalize()
            .is_ok_and(|parent| parent.starts_with("/proc"))
        {
            return true;
        }
        match fs::read_link(&path) {
            Ok(next) => path = parent.join(next),
            Err(_) => return false,
        }
    }
    false
}

/// The temporary file beside `target` that is renamed to it.
fn temporary(target: &Path) -> PathBuf {
    let mut name = target.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".{}.tmp", std::process::id()));
    target.with_file_name(name)
}

/// Makes the temporary file afresh: one left by an earlier process of the same id is
/// removed first, and whatever is at the name is never followed (no link, no device).
fn create(temporary: &Path) -> io::Result<fs::File> {
    match fs::remove_file(temporary) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
        _ => {}
    }
    OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(temporary)
}

/// What a file that is not a regular file is, in words.
fn kind(file_type: &fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "FIFO";
        }
        if file_type.is_char_device() {
            return "character device";
        }
        if file_type.is_block_device() {
            return "block device";
        }
        if file_type.is_socket() {
            return "socket";
        }
    }
    if file_type.is_dir() {
        "directory"
    } else {
        "special file"
    }
}
