//! The parsers LALRPOP generates from `grammar.lalrpop` at build time: `grammar::V2ScriptParser`
//! and `grammar::ClassicScriptParser`, one per dialect, over the [`Lexer`](super::lexer::Lexer)'s
//! tokens.

lalrpop_util::lalrpop_mod!(
    /// The LALRPOP-generated parsers (`V2ScriptParser`, `ClassicScriptParser`).
    #[allow(clippy::all, unused_parens, unused_imports, missing_docs)]
    pub grammar,
    "/script/grammar.rs"
);
