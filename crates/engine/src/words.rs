//! Words for people: counts (`1 skill`, `2 skills`, `1 info`) and how far
//! a mistyped name is from a real one.

/// `n` and the noun in the number it takes.
pub fn count(n: impl Into<i128>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// [`count`] for the nouns that take an `s`.
pub fn count_s(n: impl Into<i128>, noun: &str) -> String {
    let n = n.into();
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// The first of `names` and how many more (`a and 2 more files`, `noun`
/// taking an `s`), and the pronoun for them all (`it`, `them`); none for
/// none.
pub fn first_and_more(names: &[String], noun: &str) -> Option<(String, &'static str)> {
    let first = names.first()?;
    Some(match names.len() - 1 {
        0 => (first.clone(), "it"),
        more => (format!("{first} and {}", count_s(more as i128, &format!("more {noun}"))), "them"),
    })
}

/// `12,345`.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Levenshtein distance, in characters.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = diagonal + usize::from(ca != *cb);
            diagonal = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_and_how_many_more() {
        let names = |n: usize| (0..n).map(|i| format!("f{i}")).collect::<Vec<_>>();
        assert_eq!(first_and_more(&names(0), "file"), None);
        assert_eq!(first_and_more(&names(1), "file"), Some(("f0".to_owned(), "it")));
        assert_eq!(first_and_more(&names(2), "file"), Some(("f0 and 1 more file".to_owned(), "them")));
        assert_eq!(first_and_more(&names(3), "skill"), Some(("f0 and 2 more skills".to_owned(), "them")));
    }

    #[test]
    fn one_is_singular() {
        assert_eq!(count_s(1u32, "skill"), "1 skill");
        assert_eq!(count_s(0u32, "skill"), "0 skills");
        assert_eq!(count_s(-1i64, "day"), "-1 days");
        assert_eq!(count(2u8, "match", "matches"), "2 matches");
    }
}
