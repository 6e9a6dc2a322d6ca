//! A pull-request comment held under its host's size limit: GitHub refuses
//! a comment body over 65,536 characters, and a change to many skills (or
//! a check of a large home) writes more. What must stay is kept. Over the
//! limit, every folded part that has a short form takes it first; then
//! parts are left out from the end (so the comment never skips one and
//! shows a later one) until the rest fits; when none had to be left out,
//! the room that remains gives parts their whole form back, in order. A
//! last line says what was shortened and left out.

/// GitHub's limit on a comment's body, in characters.
pub const GITHUB_COMMENT_LIMIT: usize = 65_536;

/// A comment's parts, in order.
#[derive(Debug, Default)]
pub struct Comment {
    parts: Vec<Part>,
}

#[derive(Debug)]
enum Part {
    Kept(String),
    Folded { kind: &'static str, full: String, short: Option<String> },
}

/// The limit a comment was held under, and how many folded parts of each
/// kind were shortened or left out (kinds in the order they first come).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Cut {
    pub limit: usize,
    pub shortened: Vec<(&'static str, usize)>,
    pub left_out: Vec<(&'static str, usize)>,
    /// The kept text alone (with the note) is longer than the limit: the
    /// comment is over it all the same, which the note must not deny.
    pub over: bool,
}

impl Cut {
    pub fn is_empty(&self) -> bool {
        self.shortened.is_empty() && self.left_out.is_empty()
    }

    /// How many parts of `kind` were shortened.
    pub fn shortened_of(&self, kind: &str) -> usize {
        count_of(&self.shortened, kind)
    }

    /// How many parts of `kind` were left out.
    pub fn left_out_of(&self, kind: &str) -> usize {
        count_of(&self.left_out, kind)
    }
}

fn count_of(counts: &[(&'static str, usize)], kind: &str) -> usize {
    counts.iter().find(|(k, _)| *k == kind).map_or(0, |(_, n)| *n)
}

fn count_in(counts: &mut Vec<(&'static str, usize)>, kind: &'static str) {
    match counts.iter_mut().find(|(k, _)| *k == kind) {
        Some((_, n)) => *n += 1,
        None => counts.push((kind, 1)),
    }
}

impl Comment {
    /// Text that stays whatever the limit.
    pub fn keep(&mut self, text: impl Into<String>) {
        self.parts.push(Part::Kept(text.into()));
    }

    /// Text that may be shortened to `short` or left out; `kind` names it
    /// in the [`Cut`].
    pub fn fold(&mut self, kind: &'static str, full: String, short: Option<String>) {
        self.parts.push(Part::Folded { kind, full, short });
    }

    /// The comment in at most `limit` bytes (so at most as many
    /// characters; none: whole), `note(cut)` written last when anything was
    /// cut. Kept text alone beyond the limit is written all the same.
    pub fn fit(self, limit: Option<usize>, note: impl Fn(&Cut) -> String) -> String {
        let whole: usize = self.parts.iter().map(Part::full_len).sum();
        let Some(limit) = limit.filter(|&limit| whole > limit) else {
            return self.parts.into_iter().map(Part::into_full).collect();
        };
        // Room for the note at its longest: every folded part left out.
        let mut worst = Cut { limit, ..Cut::default() };
        for part in &self.parts {
            if let Part::Folded { kind, short, .. } = part {
                count_in(&mut worst.left_out, kind);
                if short.is_some() {
                    count_in(&mut worst.shortened, kind);
                }
            }
        }
        let budget = limit.saturating_sub(note(&worst).len());
        let mut forms: Vec<Form> =
            self.parts.iter().map(|p| if p.short_len().is_some() { Form::Short } else { Form::Full }).collect();
        let size = |part: &Part, form: Form| match form {
            Form::Full => part.full_len(),
            Form::Short => part.short_len().unwrap_or_else(|| part.full_len()),
            Form::Out => 0,
        };
        let mut total: usize = self.parts.iter().zip(&forms).map(|(p, &f)| size(p, f)).sum();
        let mut dropped = false;
        for (part, form) in self.parts.iter().zip(forms.iter_mut()).rev() {
            if total <= budget {
                break;
            }
            if matches!(part, Part::Folded { .. }) {
                total -= size(part, *form);
                *form = Form::Out;
                dropped = true;
            }
        }
        if !dropped {
            for (part, form) in self.parts.iter().zip(forms.iter_mut()) {
                let grown = total - size(part, *form) + part.full_len();
                if *form == Form::Short && grown <= budget {
                    total = grown;
                    *form = Form::Full;
                }
            }
        }
        let mut cut = Cut { limit, over: total > budget, ..Cut::default() };
        let mut text = String::with_capacity(limit);
        for (part, form) in self.parts.into_iter().zip(forms) {
            match (part, form) {
                (Part::Kept(kept), _) => text.push_str(&kept),
                (Part::Folded { full, .. }, Form::Full) => text.push_str(&full),
                (Part::Folded { kind, short, full }, Form::Short) => {
                    count_in(&mut cut.shortened, kind);
                    text.push_str(short.as_deref().unwrap_or(&full));
                }
                (Part::Folded { kind, .. }, Form::Out) => count_in(&mut cut.left_out, kind),
            }
        }
        if !cut.is_empty() {
            text.push_str(&note(&cut));
        }
        text
    }
}

/// The form a folded part is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    Full,
    Short,
    Out,
}

impl Part {
    fn short_len(&self) -> Option<usize> {
        match self {
            Part::Folded { short: Some(short), .. } => Some(short.len()),
            _ => None,
        }
    }

    fn full_len(&self) -> usize {
        match self {
            Part::Kept(text) | Part::Folded { full: text, .. } => text.len(),
        }
    }

    fn into_full(self) -> String {
        match self {
            Part::Kept(text) | Part::Folded { full: text, .. } => text,
        }
    }
}

/// `n` and the noun, singular or plural: `1 file`, `3 files`.
pub fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn note(cut: &Cut) -> String {
        let parts: Vec<String> = cut
            .left_out
            .iter()
            .map(|(k, n)| format!("{n} {k} out"))
            .chain(cut.shortened.iter().map(|(k, n)| format!("{n} {k} short")))
            .collect();
        format!("[{}]", parts.join(", "))
    }

    fn sample() -> Comment {
        let mut c = Comment::default();
        c.keep("HEAD\n");
        for i in 0..5 {
            c.fold("row", format!("row {i}\n"), None);
        }
        c.fold("detail", "x".repeat(40) + "\n", Some("x-short\n".into()));
        c.fold("detail", "y".repeat(10) + "\n", Some("y-short\n".into()));
        c.fold("detail", "z".repeat(80) + "\n", None);
        c.fold("detail", "w\n".into(), None);
        c.keep("TAIL\n");
        c
    }

    #[test]
    fn within_the_limit_everything_is_written_and_no_note() {
        let whole = sample().fit(None, note);
        assert!(whole.starts_with("HEAD\nrow 0\n") && whole.ends_with("w\nTAIL\n"));
        assert_eq!(sample().fit(Some(whole.len()), note), whole);
    }

    #[test]
    fn over_the_limit_parts_are_shortened_then_left_out_from_the_end() {
        let limit = 120;
        let fitted = sample().fit(Some(limit), note);
        assert!(fitted.len() <= limit, "{} bytes: {fitted:?}", fitted.len());
        // Every detail with a short form takes it; the last two parts,
        // which have none, are left out from the end until the rest fits.
        assert_eq!(
            fitted,
            "HEAD\nrow 0\nrow 1\nrow 2\nrow 3\nrow 4\nx-short\ny-short\nTAIL\n[2 detail out, 2 detail short]"
        );
    }

    #[test]
    fn short_forms_give_way_before_any_part_is_left_out() {
        let mut c = Comment::default();
        c.keep("T\n");
        c.fold("detail", "a".repeat(200), Some("a-short\n".into()));
        for name in ["b", "c", "d", "e"] {
            c.fold("detail", name.repeat(30), Some(format!("{name}-short\n")));
        }
        let fitted = c.fit(Some(150), note);
        assert!(fitted.len() <= 150, "{} bytes: {fitted:?}", fitted.len());
        // The long first part gives way; the room left gives the next
        // parts their whole form back, in order, as far as it goes.
        let whole_back = ["b", "c", "d"].map(|n| n.repeat(30)).concat();
        assert_eq!(fitted, format!("T\na-short\n{whole_back}e-short\n[2 detail short]"));
    }

    #[test]
    fn kept_text_stays_when_nothing_else_fits() {
        let fitted = sample().fit(Some(10), note);
        assert_eq!(fitted, "HEAD\nTAIL\n[5 row out, 4 detail out]");
    }

    #[test]
    fn every_limit_is_kept_when_the_kept_text_and_note_fit() {
        let kept_and_worst_note = "HEAD\nTAIL\n".len() + "[5 row out, 4 detail out, 2 detail short]".len();
        let whole = sample().fit(None, note).len();
        for limit in kept_and_worst_note..whole + 2 {
            let fitted = sample().fit(Some(limit), note);
            assert!(fitted.len() <= limit, "limit {limit}: {} bytes", fitted.len());
            assert!(fitted.starts_with("HEAD\n"), "limit {limit}");
        }
    }

    #[test]
    fn nouns_are_counted() {
        assert_eq!(counted(1, "file", "files"), "1 file");
        assert_eq!(counted(0, "file", "files"), "0 files");
        assert_eq!(counted(12, "row", "rows"), "12 rows");
    }
}
