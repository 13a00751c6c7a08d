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
}
