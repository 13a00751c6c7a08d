//! The `hangar rules` JSON requests: arbitrary text given to either engine's answer never
//! panics, a refused request names its fault, and the Jungle answer is always JSON whose
//! `type` says whether it succeeded (docs/flight-json.md, docs/jungle-json.md).

use hangar_games::rules_json::{flight, jungle};
use serde_json::Value;

/// Deepest Jungle perft a request may ask for here: the command allows 8, which takes
/// minutes, and the fuzzer must run thousands of inputs a second.
const MAX_PERFT_DEPTH: u64 = 3;

/// The bots a `bot` request may name here: those that answer in microseconds (the others
/// think for up to a second, or as deep as the request asks).
const QUICK_BOTS: [&str; 4] = ["random", "greedy", "easy", "heuristic"];

/// Runs the target on the fuzzer's bytes.
pub fn run(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if slow_bot(text) {
        return;
    }
    match flight::answer(text) {
        Ok(answer) => assert_eq!(answer["ok"], true, "{text:?} answered {answer}"),
        Err(reason) => assert!(!reason.is_empty(), "{text:?} refused unnamed"),
    }
    if deep_perft(text) {
        return;
    }
    let (answer, ok) = jungle::respond(text);
    let answer: Value = serde_json::from_str(&answer).expect("the Jungle answer is JSON");
    assert_eq!(answer["type"] == "error", !ok, "{text:?} answered {answer}");
    if !ok {
        assert!(
            answer["message"].as_str().is_some_and(|m| !m.is_empty()),
            "{text:?} refused unnamed: {answer}"
        );
    }
}

/// Whether the text asks for a perft deeper than [`MAX_PERFT_DEPTH`] (read as the answer
/// reads it: a JSON object's `depth`).
fn deep_perft(text: &str) -> bool {
    serde_json::from_str::<Value>(text)
        .ok()
        .and_then(|request| request.get("depth")?.as_u64())
        .is_some_and(|depth| depth > MAX_PERFT_DEPTH)
}

/// Whether the text names a bot `level` other than the [`QUICK_BOTS`].
fn slow_bot(text: &str) -> bool {
    serde_json::from_str::<Value>(text)
        .ok()
        .and_then(|request| request.get("level").cloned())
        .is_some_and(|level| !level.as_str().is_some_and(|l| QUICK_BOTS.contains(&l)))
}
