//! What a name or a chat line may be made of, and when two names are the same (P-ACCOUNT):
//! no invisible, blank-looking or direction-changing characters, and names unique by what
//! they look like — their Unicode confusable skeleton (UTS #39).

use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};

/// Default_Ignorable_Code_Point (Unicode DerivedCoreProperties.txt): characters a renderer
/// may show as nothing at all — the combining grapheme joiner U+034F, Hangul fillers
/// U+115F/U+1160/U+3164/U+FFA0, Khmer U+17B4/U+17B5, variation selectors, zero-width and
/// direction characters, tags.
const DEFAULT_IGNORABLE: &[(u32, u32)] = &[
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
];

/// Characters that are not ignorable but draw as blank space all the same.
const BLANK_LOOKING: &[u32] = &[
    0x2800,  // Braille pattern blank
    0x3000,  // ideographic space (also whitespace)
    0x1680,  // Ogham space mark
    0x2062,  // invisible times (also ignorable)
    0x2063,  // invisible separator
    0x2064,  // invisible plus
    0x1D159, // musical symbol null notehead
    0x133FC, // Egyptian hieroglyph Z015B-like blank
];

/// Whether `c` is invisible, blank-looking (other than the plain space) or changes how the
/// text around it is shown: control, format (bidi overrides, zero-width), private,
/// unassigned, line and paragraph separators, default-ignorable, or whitespace.
pub fn hidden(c: char) -> bool {
    use GeneralCategory as G;
    let code = u32::from(c);
    matches!(
        c.general_category(),
        G::Control
            | G::Format
            | G::Surrogate
            | G::PrivateUse
            | G::Unassigned
            | G::LineSeparator
            | G::ParagraphSeparator
    ) || (c.is_whitespace() && c != ' ')
        || DEFAULT_IGNORABLE
            .iter()
            .any(|&(first, last)| (first..=last).contains(&code))
        || BLANK_LOOKING.contains(&code)
}

/// Whether a chat line may be shown: no hidden character (bidi overrides, zero-width, line
/// separators, blank-looking) except the emoji variation selectors U+FE0E/U+FE0F, which only
/// choose how the character before them is drawn.
pub fn showable_chat(text: &str) -> bool {
    !text
        .chars()
        .any(|c| hidden(c) && !matches!(c, '\u{FE0E}' | '\u{FE0F}'))
}

/// Whether a (normalised) name may be shown: no hidden character, and at least one letter or
/// digit (a name of combining marks or symbols only shows as nothing you can tell apart).
pub fn showable_name(name: &str) -> bool {
    !name.chars().any(hidden) && name.chars().any(char::is_alphanumeric)
}

/// The form two names are compared in: the UTS #39 confusable skeleton of the lowercase name,
/// lowercased again (a skeleton may map to capitals). `ana`, `аna` (Cyrillic а) and `Ana`
/// share one.
pub fn skeleton_key(name: &str) -> String {
    let lower = name.to_lowercase();
    unicode_security::skeleton(&lower)
        .collect::<String>()
        .to_lowercase()
}

/// The spellings of the hall's bots' names: `bot:LEVEL` on the wire, `电脑` on the Chinese
/// page (and its traditional form). No person's name looks like one of them (P-ACCOUNT).
const BOT_PREFIXES: &[&str] = &["bot", "电脑", "電腦"];

/// Whether a (normalised) name looks like a hall bot's in any look-alike spelling: its
/// skeleton starts with the skeleton of `bot` followed by nothing or a separator (not a
/// letter or digit: `bottle` is a name), or with the skeleton of `电脑`. `bоt:hard` with a
/// Cyrillic `о` and `b0t-1` look like `bot:…`.
pub fn looks_like_bot(name: &str) -> bool {
    let key = skeleton_key(name);
    BOT_PREFIXES.iter().any(|prefix| {
        let Some(rest) = key.strip_prefix(skeleton_key(prefix).as_str()) else {
            return false;
        };
        match rest.chars().next() {
            None => true,
            Some(next) => !prefix.is_ascii() || !next.is_alphanumeric(),
        }
    })
}

/// Whether a combining mark (general category M): it draws on the character before it.
fn is_mark(c: char) -> bool {
    use GeneralCategory as G;
    matches!(
        c.general_category(),
        G::NonspacingMark | G::SpacingMark | G::EnclosingMark
    )
}

/// Whether a (normalised) name mixes scripts only as UTS #39's "moderately restrictive"
/// level allows (one script; Han with Hiragana, Katakana, Bopomofo or Hangul; or Latin with
/// one other recommended script but Cyrillic or Greek), every letter, digit and mark being in
/// the UTS #39 identifier profile, and carries no combining mark that its letter's script
/// does not use: a mark follows a letter whose scripts include the mark's (marks of every
/// script, such as U+0301, fit any), and the same mark does not repeat. Spaces, punctuation
/// and symbols are not letters and take no part in the scripts.
pub fn scripts_fit(name: &str) -> bool {
    use unicode_security::mixed_script::AugmentedScriptSet;
    use unicode_security::{RestrictionLevel, RestrictionLevelDetection};
    let letters: String = name
        .chars()
        .filter(|&c| c.is_alphanumeric() || is_mark(c))
        .collect();
    if !letters
        .as_str()
        .check_restriction_level(RestrictionLevel::ModeratelyRestrictive)
    {
        return false;
    }
    let mut base: Option<AugmentedScriptSet> = None;
    let mut previous: Option<char> = None;
    for c in name.chars() {
        if is_mark(c) {
            let Some(mut scripts) = base else {
                return false;
            };
            let mark = AugmentedScriptSet::for_char(c);
            scripts.intersect_with(mark);
            if previous == Some(c) || (!mark.is_all() && scripts.is_empty()) {
                return false;
            }
        } else {
            base = Some(AugmentedScriptSet::for_char(c));
        }
        previous = Some(c);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn p_account_look_alikes_share_a_skeleton() {
        assert_eq!(skeleton_key("ana"), skeleton_key("\u{430}na"));
        assert_eq!(skeleton_key("ana"), skeleton_key("ANA"));
        assert_ne!(skeleton_key("ana"), skeleton_key("anna"));
    }

    #[test]
    fn p_account_invisible_and_blank_characters_are_hidden() {
        for c in [
            '\u{34F}', '\u{2800}', '\u{115F}', '\u{1160}', '\u{3164}', '\u{17B4}', '\u{200B}',
            '\u{202E}', '\u{2028}', '\u{FFA0}', '\u{FE0F}',
        ] {
            assert!(hidden(c), "U+{:04X}", u32::from(c));
        }
        assert!(!hidden('a') && !hidden(' ') && !hidden('飞'));
        assert!(!showable_name("\u{301}\u{301}"), "combining marks only");
        assert!(showable_name("ana 2"));
    }

    #[test]
    fn p_account_marks_of_another_script_are_refused() {
        // Tifinagh consonant joiner, Khitan small script filler, Duployan thick letter selector.
        for name in ["ana\u{2D7F}", "ana\u{16FE4}", "ana\u{1BC9D}"] {
            assert!(!scripts_fit(name), "{name:?}");
        }
        // A mark of every script, and marks of the letter's own script, fit.
        assert!(scripts_fit("ana\u{301}"));
        assert!(scripts_fit("जय\u{94D}"));
        assert!(!scripts_fit("\u{301}ana"), "a mark on nothing");
        assert!(!scripts_fit("a\u{301}\u{301}na"), "a repeated mark");
    }

    #[test]
    fn p_account_scripts_mix_only_as_moderately_restrictive_allows() {
        for name in [
            "ana",
            "Ana Lee_2",
            "анна",
            "飞行棋高手",
            "ひらがな漢字",
            "ana飞",
            "한국어abc",
            "ana-α",
        ] {
            let fits = scripts_fit(name);
            assert_eq!(fits, name != "ana-α", "{name:?}");
        }
        // Latin with Cyrillic or Greek letters is the look-alike case.
        assert!(!scripts_fit("b\u{43E}t"));
        assert!(!scripts_fit("p\u{3B1}ul"));
        // Two scripts other than Latin.
        assert!(!scripts_fit("анна\u{3B1}"));
    }

    #[test]
    fn p_account_names_that_look_like_the_bots_are_found_in_any_spelling() {
        for name in [
            "bot",
            "bot:hard",
            "Bot:easy",
            "b\u{43E}t:hard",
            "b0t-1",
            "BOT_x",
            "电脑",
            "电脑高手",
            "電腦",
        ] {
            assert!(looks_like_bot(name), "{name:?}");
        }
        for name in ["bottle", "robot:x", "ana", "电话", "botany"] {
            assert!(!looks_like_bot(name), "{name:?}");
        }
    }
}
