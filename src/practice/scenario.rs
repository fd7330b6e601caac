//! A scenario as practice runs read it: the loaded script's text, its syntax tree (parsed
//! again from the text, in the session's dialect) and the hand types it declares.

use crate::error::{Error, ErrorKind, Result};
use crate::job::Session;
use crate::practice::hand_types::HandTypes;
use crate::practice::refusal::refusal;
use crate::practice::stock_scenario::StockScenario;
use crate::script::ast::ParsedScript;

/// The loaded script of a session, with its hand types.
pub struct Scenario {
    /// The script's text.
    pub text: Vec<u8>,
    /// Its syntax tree.
    pub script: ParsedScript,
    /// The hand types it declares (at least one).
    pub types: HandTypes,
}

/// Whether `session`'s loaded script declares hand types.
pub fn declares_hand_types(session: &Session) -> Result<bool> {
    let options = session.options();
    let text = session.script_text();
    let script = crate::script::parse(text, options.dialect(), &options.script_vars)
        .map_err(|d| Error::from(d).with_source(text))?;
    Ok(!HandTypes::declared(&script)?.types.is_empty())
}

impl Scenario {
    /// The scenario of `session`'s loaded script; refuses one that declares no hand type.
    pub fn read(session: &Session) -> Result<Scenario> {
        if session.loaded_program().is_none() {
            return Err(Error::new(ErrorKind::Usage, "no script loaded"));
        }
        let options = session.options();
        let text = session.script_text().to_vec();
        let script = crate::script::parse(&text, options.dialect(), &options.script_vars)
            .map_err(|d| Error::from(d).with_source(&text))?;
        let types = HandTypes::declared(&script)?;
        if types.types.is_empty() {
            return Err(refusal("there are no hand types to level. Name them with variables beginning `HandType`."));
        }
        Ok(Scenario { text, script, types })
    }

    /// The scenario split around its levelling block (see [`StockScenario`]).
    pub fn stock(&self) -> Result<StockScenario> {
        StockScenario::read(&self.text, &self.script)
    }
}
