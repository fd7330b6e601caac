//! Which peer a session imitates: classic dealer (Hans van Staveren's, the Debian package) or
//! DealerV2 4.3.3. The dialect selects the expression precedence ladder, output formats, the
//! end-of-run report and the few places where the two languages disagree; the random generator
//! is chosen separately.

/// The language and output dialect of a session.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Dialect {
    /// Classic dealer (Debian `dealer` 20211121): one precedence level for `* / %`, one for the
    /// comparisons; classic output formats (`Frequency …:`, `%g` averages, …).
    Classic,
    /// DealerV2 4.3.3: every arithmetic and comparison operator on its own level; V2 formats.
    #[default]
    V2,
}
