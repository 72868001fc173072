//! The text of a partial result: lines of tab-separated fields, a line's name first, closed by
//! a `checksum` line (FNV-1a of every byte before it) and an `end` line. [`Writer`] writes the
//! rows; [`Lines`] reads them back one at a time and [`Row`] reads a row's typed values, each
//! error one line naming the row.

use std::fmt::{self, Display};
use std::io::{BufRead, Read};

/// The FNV-1a hash (64 bits) of `bytes`, continued from `hash` (start from
/// [`FNV_OFFSET`]): the checksum of a partial result.
pub(crate) fn fnv1a(mut hash: u64, bytes: &[u8]) -> u64 {
    for &byte in bytes {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// FNV-1a's starting value.
pub(crate) const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// A key as the text writes it: 16 lowercase hex digits.
pub(crate) struct Key(pub(crate) u64);

impl Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

/// Writes rows of tab-separated fields.
pub(crate) struct Writer {
    out: String,
}

impl Writer {
    /// A text whose first line is `header`.
    pub(crate) fn new(header: &str) -> Writer {
        Writer {
            out: format!("{header}\n"),
        }
    }

    /// One row: its name, the `head` values, then the `tail` values.
    pub(crate) fn row<T: Display>(
        &mut self,
        name: &str,
        head: &[&dyn Display],
        tail: impl IntoIterator<Item = T>,
    ) {
        self.out.push_str(name);
        for value in head {
            self.out.push_str(&format!("\t{value}"));
        }
        for value in tail {
            self.out.push_str(&format!("\t{value}"));
        }
        self.out.push('\n');
    }

    /// One row of a name and fixed values.
    pub(crate) fn fixed(&mut self, name: &str, values: &[&dyn Display]) {
        self.row(name, values, None::<u8>);
    }

    /// The text, closed by its `checksum` and `end` lines.
    pub(crate) fn finish(mut self) -> String {
        let checksum = fnv1a(FNV_OFFSET, self.out.as_bytes());
        self.out
            .push_str(&format!("checksum\t{}\nend\n", Key(checksum)));
        self.out
    }
}

/// The lines of a text, read one at a time (never more than the longest line allowed at
/// once), with the checksum of the lines before the current one.
pub(crate) struct Lines<R> {
    reader: R,
    /// The current line's number, from 1.
    pub(crate) number: usize,
    /// FNV-1a of the lines before the current one, each with its newline.
    pub(crate) before: u64,
    /// FNV-1a of the lines up to the current one.
    hash: u64,
}

impl<R: BufRead> Lines<R> {
    /// The lines of `reader`, from its start.
    pub(crate) fn new(reader: R) -> Lines<R> {
        Lines {
            reader,
            number: 0,
            before: FNV_OFFSET,
            hash: FNV_OFFSET,
        }
    }

    /// The next line, without its newline; `None` at the end of the input. A line longer than
    /// `longest`, without its newline (the file cut short) or not UTF-8 is an error. A line
    /// may end in CR LF (a file that passed through a tool that writes them): it is read, and
    /// counted in the checksum, as the line ending in LF that the shard wrote.
    pub(crate) fn next(&mut self, longest: usize) -> Result<Option<String>, String> {
        self.number += 1;
        let number = self.number;
        let mut line = Vec::new();
        let read = (&mut self.reader)
            .take(longest as u64 + 2)
            .read_until(b'\n', &mut line)
            .map_err(|e| format!("line {number}: cannot read: {e}"))?;
        if read == 0 {
            return Ok(None);
        }
        if line.ends_with(b"\r\n") {
            line.remove(line.len() - 2);
        }
        self.before = self.hash;
        self.hash = fnv1a(self.hash, &line);
        if line.last() != Some(&b'\n') || line.len() > longest + 1 {
            return Err(if line.len() > longest {
                format!("line {number}: longer than {longest} bytes")
            } else {
                format!("line {number}: no newline at its end (cut short?)")
            });
        }
        line.pop();
        String::from_utf8(line)
            .map(Some)
            .map_err(|_| format!("line {number}: not UTF-8 text"))
    }
}

/// One line split into its name and values; its readers' errors name the row.
pub(crate) struct Row<'a> {
    /// The line's first field.
    pub(crate) name: &'a str,
    /// The fields after the name.
    pub(crate) values: Vec<&'a str>,
}

impl<'a> Row<'a> {
    /// The row of a line.
    pub(crate) fn parse(line: &'a str) -> Row<'a> {
        let mut fields = line.split('\t');
        let name = fields.next().unwrap_or_default();
        Row {
            name,
            values: fields.collect(),
        }
    }

    /// The values: exactly `count` of them.
    pub(crate) fn exactly(&self, count: usize) -> Result<&[&'a str], String> {
        if self.values.len() != count {
            let plural = if count == 1 { "" } else { "s" };
            return Err(format!(
                "'{}' has {} values, not {count} value{plural}",
                self.name,
                self.values.len()
            ));
        }
        Ok(&self.values)
    }

    /// The values, of which there are at least `count` (the leading ones up to a key).
    pub(crate) fn keyed(&self, count: usize) -> Result<&[&'a str], String> {
        if self.values.len() < count {
            return Err(format!("'{}' has no key", self.name));
        }
        Ok(&self.values)
    }

    /// A count: decimal digits only.
    pub(crate) fn count<T: std::str::FromStr>(&self, text: &str) -> Result<T, String> {
        let bad = || format!("'{}': '{text}' is not a count", self.name);
        if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        text.parse().map_err(|_| bad())
    }

    /// Seconds or nanoseconds: a finite number, not negative.
    pub(crate) fn duration(&self, text: &str) -> Result<f64, String> {
        match text.parse::<f64>() {
            Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
            _ => Err(format!(
                "'{}': '{text}' is not a finite number of at least 0",
                self.name
            )),
        }
    }

    /// A key: 16 hex digits.
    pub(crate) fn key(&self, text: &str) -> Result<u64, String> {
        let bad = || format!("'{}': '{text}' is not a key (16 hex digits)", self.name);
        if text.len() != 16 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(bad());
        }
        u64::from_str_radix(text, 16).map_err(|_| bad())
    }

    /// An index below `limit`, written as the writer writes it (no leading zero), so that a
    /// line given twice is seen as such.
    pub(crate) fn index(&self, text: &str, limit: usize) -> Result<usize, String> {
        let index: usize = self.count(text)?;
        if index >= limit {
            return Err(format!("'{}': index {index} out of range", self.name));
        }
        if index.to_string() != text {
            return Err(format!("'{}': '{text}' is not an index", self.name));
        }
        Ok(index)
    }

    /// Each of `texts` read by `read`, into `into` (as many as both have).
    pub(crate) fn each<T>(
        &self,
        into: &mut [T],
        texts: &[&str],
        read: impl Fn(&Self, &str) -> Result<T, String>,
    ) -> Result<(), String> {
        for (x, text) in into.iter_mut().zip(texts) {
            *x = read(self, text)?;
        }
        Ok(())
    }

    /// The FENs at the end of a line: each one a non-empty field.
    pub(crate) fn fens(&self, texts: &[&str]) -> Result<Vec<String>, String> {
        if texts.iter().any(|f| f.is_empty()) {
            return Err(format!("'{}': an empty position", self.name));
        }
        Ok(texts.iter().map(|f| f.to_string()).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The error of reading the row of `line` with `read`.
    fn error<T: std::fmt::Debug>(line: &str, read: impl Fn(&Row) -> Result<T, String>) -> String {
        read(&Row::parse(line)).unwrap_err()
    }

    #[test]
    fn rows_round_trip_with_their_checksum() {
        let mut w = Writer::new("header");
        w.fixed("one", &[&7, &Key(0xab)]);
        w.row("many", &[&"x"], [1.5, 2.0]);
        let text = w.finish();
        let body = "header\none\t7\t00000000000000ab\nmany\tx\t1.5\t2\n";
        let sum = fnv1a(FNV_OFFSET, body.as_bytes());
        assert_eq!(text, format!("{body}checksum\t{sum:016x}\nend\n"));
        let mut lines = Lines::new(text.as_bytes());
        let mut read = Vec::new();
        while let Some(line) = lines.next(64).unwrap() {
            read.push(line);
        }
        assert_eq!(read.len(), 5);
        let row = Row::parse(&read[1]);
        assert_eq!((row.name, row.count::<u32>(row.values[0])), ("one", Ok(7)));
        assert_eq!(row.key(row.values[1]), Ok(0xab));
    }

    #[test]
    fn malformed_values_are_named_in_one_line() {
        let cases: [(String, &str); 9] = [
            (
                error("n\t1\t2", |r| r.exactly(1).map(<[_]>::len)),
                "'n' has 2 values, not 1 value",
            ),
            (
                error("n\t1", |r| r.exactly(2).map(<[_]>::len)),
                "'n' has 1 values, not 2 values",
            ),
            (
                error("n\t1", |r| r.keyed(2).map(<[_]>::len)),
                "'n' has no key",
            ),
            (
                error("n\t-1", |r| r.count::<u64>(r.values[0])),
                "'n': '-1' is not a count",
            ),
            (
                error("n\t", |r| r.count::<u64>(r.values[0])),
                "'n': '' is not a count",
            ),
            (
                error("n\tinf", |r| r.duration(r.values[0])),
                "'n': 'inf' is not a finite number of at least 0",
            ),
            (
                error("n\tabc", |r| r.key(r.values[0])),
                "'n': 'abc' is not a key (16 hex digits)",
            ),
            (
                error("n\t01", |r| r.index(r.values[0], 2)),
                "'n': '01' is not an index",
            ),
            (
                error("n\t2", |r| r.index(r.values[0], 2)),
                "'n': index 2 out of range",
            ),
        ];
        for (got, expected) in cases {
            assert_eq!(got, expected);
        }
        assert_eq!(
            error("n\ta\t", |r| r.fens(&r.values)),
            "'n': an empty position"
        );
    }

    #[test]
    fn malformed_lines_are_named_by_number() {
        let read = |bytes: &[u8], longest: usize| {
            let mut lines = Lines::new(bytes);
            loop {
                match lines.next(longest) {
                    Ok(Some(_)) => continue,
                    Ok(None) => return String::new(),
                    Err(e) => return e,
                }
            }
        };
        assert_eq!(read(b"a\nbcdef\n", 4), "line 2: longer than 4 bytes");
        assert_eq!(
            read(b"a\nb", 4),
            "line 2: no newline at its end (cut short?)"
        );
        assert_eq!(read(b"\xff\n", 4), "line 1: not UTF-8 text");
        assert_eq!(read(b"a\nb\n", 4), "");
        // CR LF ends a line as LF does, with the same limit on what precedes it.
        assert_eq!(read(b"a\r\nbcde\r\n", 4), "");
        assert_eq!(read(b"a\r\nbcdef\r\n", 4), "line 2: longer than 4 bytes");
        assert_eq!(read(b"abcde\n", 4), "line 1: longer than 4 bytes");
    }

    #[test]
    fn crlf_lines_read_and_sum_as_lf_lines() {
        let read = |bytes: &[u8]| {
            let mut lines = Lines::new(bytes);
            let mut read = Vec::new();
            while let Some(line) = lines.next(64).unwrap() {
                read.push(line);
            }
            (read, lines.before, lines.hash)
        };
        assert_eq!(read(b"one\r\ntwo\tx\r\n"), read(b"one\ntwo\tx\n"));
        // A CR elsewhere is the line's own.
        assert_eq!(read(b"a\rb\n").0, ["a\rb"]);
    }
}
