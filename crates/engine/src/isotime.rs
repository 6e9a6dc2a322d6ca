//! Timestamps as Hermes reads them: Python 3.11's `datetime.fromisoformat`,
//! a naive time taken as UTC (both of Hermes' readers do so), kept as
//! microseconds since the Unix epoch.

/// Microseconds since 1970-01-01T00:00:00Z.
pub type Micros = i64;

pub const MICROS_PER_DAY: i64 = 86_400_000_000;
pub const MICROS_PER_HOUR: i64 = 3_600_000_000;

fn digits(s: &str) -> Option<i64> {
    (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse().ok()).flatten()
}

fn is_leap(y: i64) -> bool {
    (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
}

fn days_in_month(y: i64, m: i64) -> i64 {
    match m {
        2 if is_leap(y) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days from 1970-01-01 to the civil date (proleptic Gregorian).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The civil date (year, month, day) of a day counted from 1970-01-01
/// (Howard Hinnant's algorithm).
pub fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// An ISO week date: `YYYY-Www[-D]` or `YYYYWww[D]`, as days since the epoch.
fn week_date(s: &str) -> Option<i64> {
    let compact = s.replace('-', "");
    let (y, rest) = (digits(compact.get(..4)?)?, compact.get(4..)?.strip_prefix('W')?);
    let (w, d) = match rest.len() {
        2 => (digits(rest)?, 1),
        3 => (digits(&rest[..2])?, digits(&rest[2..])?),
        _ => return None,
    };
    // Week 1 holds January 4th; weeks start on Monday.
    let jan4 = days_from_civil(y, 1, 4);
    let monday = jan4 - (jan4 + 3).rem_euclid(7);
    let weeks = if (days_from_civil(y, 12, 28) - monday) / 7 + 1 == 53 { 53 } else { 52 };
    ((1..=9999).contains(&y) && (1..=weeks).contains(&w) && (1..=7).contains(&d)).then(|| monday + (w - 1) * 7 + d - 1)
}

fn date(s: &str) -> Option<i64> {
    if s.contains('W') {
        return week_date(s);
    }
    let (y, m, d) = match s.len() {
        10 if s.as_bytes()[4] == b'-' && s.as_bytes()[7] == b'-' => (&s[..4], &s[5..7], &s[8..]),
        8 => (&s[..4], &s[4..6], &s[6..]),
        _ => return None,
    };
    let (y, m, d) = (digits(y)?, digits(m)?, digits(d)?);
    ((1..=9999).contains(&y) && (1..=12).contains(&m) && d >= 1 && d <= days_in_month(y, m))
        .then(|| days_from_civil(y, m, d))
}

/// `HH[:MM[:SS[.f+]]]` or `HH[MM[SS[.f+]]]`, as microseconds into the day.
fn clock(s: &str) -> Option<i64> {
    let (main, fraction) = match s.find(['.', ',']) {
        Some(at) => (&s[..at], Some(&s[at + 1..])),
        None => (s, None),
    };
    let parts: Vec<&str> = if main.contains(':') {
        main.split(':').collect()
    } else {
        (0..main.len()).step_by(2).map(|i| main.get(i..i + 2).unwrap_or("")).collect()
    };
    if parts.is_empty() || parts.len() > 3 || parts.iter().any(|p| p.len() != 2) {
        return None;
    }
    let nums: Vec<i64> = parts.iter().map(|p| digits(p)).collect::<Option<_>>()?;
    let (h, m, sec) = (nums[0], *nums.get(1).unwrap_or(&0), *nums.get(2).unwrap_or(&0));
    if h > 23 || m > 59 || sec > 59 {
        return None;
    }
    let micros = match fraction {
        None => 0,
        // Digits past the sixth are dropped (Python 3.11 takes a fraction
        // after the hours or minutes too).
        Some(f) if !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()) => {
            let six: String = f.chars().chain(std::iter::repeat('0')).take(6).collect();
            digits(&six)?
        }
        Some(_) => return None,
    };
    Some(((h * 60 + m) * 60 + sec) * 1_000_000 + micros)
}

/// A UTC offset: `Z`, or `±HH[:MM[:SS[.f]]]` / `±HHMM[SS]`, in microseconds.
fn offset(s: &str) -> Option<i64> {
    if s == "Z" {
        return Some(0);
    }
    let sign = match s.as_bytes().first()? {
        b'+' => 1,
        b'-' => -1,
        _ => return None,
    };
    let value = clock(&s[1..])?;
    (value < 24 * MICROS_PER_HOUR).then_some(sign * value)
}

/// `datetime.fromisoformat(s)` as an instant (naive read as UTC), or `None`
/// where Python raises.
pub fn parse(s: &str) -> Option<Micros> {
    if !s.is_ascii() {
        return None;
    }
    let week = s.as_bytes().get(4) == Some(&b'W') || s.as_bytes().get(5) == Some(&b'W');
    let dashed = s.as_bytes().get(4) == Some(&b'-');
    let date_len = match (week, dashed) {
        // `YYYY-Www-D`, `YYYY-Www`, `YYYYWwwD`, `YYYYWww`.
        (true, true) if s.as_bytes().get(8) == Some(&b'-') => 10,
        (true, true) => 8,
        (true, false) if s.len() >= 8 && s.as_bytes()[7].is_ascii_digit() => 8,
        (true, false) => 7,
        (false, true) => 10,
        (false, false) => 8,
    };
    if s.len() < date_len {
        return None;
    }
    let day = date(&s[..date_len])?;
    let rest = &s[date_len..];
    if rest.is_empty() {
        return Some(day * MICROS_PER_DAY);
    }
    // One separator character, then the time and its offset.
    let time = &rest[1..];
    let (clock_part, tz) = match time.find(['+', '-', 'Z']) {
        Some(at) => (&time[..at], Some(&time[at..])),
        None => (time, None),
    };
    let in_day = clock(clock_part)?;
    let shift = match tz {
        Some(tz) => offset(tz)?,
        None => 0,
    };
    Some(day * MICROS_PER_DAY + in_day - shift)
}

/// `datetime.min` and `datetime.max` (as UTC): Python's calendar ends there.
pub const MIN: Micros = -62_135_596_800_000_000;
pub const MAX: Micros = 253_402_300_799_999_999;

/// `timedelta(days=d)` raises beyond this many days.
pub const MAX_TIMEDELTA_DAYS: i64 = 999_999_999;

/// `t + timedelta(days=days)`, or `None` where Python raises OverflowError
/// (the delta or the result out of range).
pub fn add_days(t: Micros, days: i64) -> Option<Micros> {
    add_micros(t, i128::from(days) * i128::from(MICROS_PER_DAY), days)
}

/// `t + timedelta(hours=hours)`, as [`add_days`].
pub fn add_hours(t: Micros, hours: i64) -> Option<Micros> {
    add_micros(t, i128::from(hours) * i128::from(MICROS_PER_HOUR), hours.div_euclid(24))
}

fn add_micros(t: Micros, delta: i128, whole_days: i64) -> Option<Micros> {
    if whole_days.unsigned_abs() > MAX_TIMEDELTA_DAYS as u64 {
        return None;
    }
    let sum = i128::from(t) + delta;
    (i128::from(MIN)..=i128::from(MAX)).contains(&sum).then_some(sum as Micros)
}

/// An instant as Python's `datetime.isoformat()` writes an aware UTC one.
pub fn format(t: Micros) -> String {
    let (day, in_day) = (t.div_euclid(MICROS_PER_DAY), t.rem_euclid(MICROS_PER_DAY));
    let (y, m, d) = civil_from_days(day);
    let (secs, micros) = (in_day / 1_000_000, in_day % 1_000_000);
    let base = format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60);
    match micros {
        0 => format!("{base}+00:00"),
        _ => format!("{base}.{micros:06}+00:00"),
    }
}

/// Now, from the system clock.
pub fn now() -> Micros {
    let since = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    since.as_micros() as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deltas_overflow_where_python_raises() {
        let t = parse("2027-03-01T00:00:00+00:00").unwrap_or_default();
        assert_eq!(add_days(t, 1), Some(t + MICROS_PER_DAY));
        assert_eq!(add_days(t, -30).map(format).as_deref(), Some("2027-01-30T00:00:00+00:00"));
        // timedelta(days=10**9) raises; so does a result past year 9999 or before year 1.
        assert_eq!(add_days(t, 1_000_000_000), None);
        assert_eq!(add_days(t, 3_000_000), None);
        assert_eq!(add_days(t, -800_000), None);
        assert_eq!(add_days(MAX, 0), Some(MAX));
        assert_eq!(add_hours(t, -25).map(format).as_deref(), Some("2027-02-27T23:00:00+00:00"));
        assert_eq!(add_hours(t, 24_000_000_000), None);
    }

    #[test]
    fn formats_round_trip() {
        for s in ["2026-12-01T21:03:35+00:00", "1970-01-01T00:00:00+00:00", "2000-02-29T12:00:00.500000+00:00"] {
            assert_eq!(format(parse(s).expect(s)), s);
        }
        assert_eq!(parse("2026-01-01"), parse("2026-01-01T00:00:00Z"));
        assert_eq!(parse("2026-01-01T02:00:00+02:00"), parse("2026-01-01T00:00:00"));
        assert_eq!(parse("2026-02-30"), None);
        assert_eq!(parse("yesterday"), None);
    }
}
