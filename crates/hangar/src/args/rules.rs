//! The rule options given on the command line (`--rules PRESET`, `--option key=value`),
//! parsed into each game's rules.

use anyhow::Context;
use hangar_flight::{Options, Preset};
use hangar_jungle::Rules;

/// The flight options of a preset (default traditional) with `key=value` options applied in
/// order.
pub fn parse_options(preset: Option<&str>, settings: &[String]) -> anyhow::Result<Options> {
    let mut options = match preset {
        Some(name) => name.parse::<Preset>()?.options(),
        None => Options::traditional(),
    };
    for setting in settings {
        let (key, value) = setting
            .split_once('=')
            .with_context(|| format!("option `{setting}` is not key=value"))?;
        options.set(key.trim(), value.trim())?;
    }
    Ok(options)
}

/// Parses Jungle's `--option key=value` flags on top of the default rules.
pub(crate) fn parse_rules(options: &[String]) -> anyhow::Result<Rules> {
    apply_options(Rules::default(), options)
}

/// Sets Jungle's `--option key=value` flags over `rules`: options not named keep their value.
pub(crate) fn apply_options(mut rules: Rules, options: &[String]) -> anyhow::Result<Rules> {
    for pair in options {
        rules
            .set_pair(pair)
            .with_context(|| format!("bad --option {pair:?}"))?;
    }
    Ok(rules)
}
