//! Python's `datetime.date` and `datetime.datetime`, as far as YAML
//! timestamps need them: validation with Python's messages, `str()`,
//! `repr()` and equality.

use crate::py::PyError;
use std::fmt::Write as _;
use std::hash::{Hash, Hasher};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Date {
    pub year: u16,
    pub month: u8,
    pub day: u8,
}

/// A datetime; `offset` is the UTC offset in seconds of an aware one.
#[derive(Debug, Clone, Copy)]
pub struct DateTime {
    pub date: Date,
    pub hour: u8,
    pub minute: u8,
    pub second: u8,
    pub microsecond: u32,
    pub offset: Option<i32>,
}

fn days_in_month(year: u16, month: u8) -> u8 {
    match month {
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

impl Date {
    /// `datetime.date(year, month, day)`, or Python's `ValueError` text.
    pub fn new(year: u32, month: u32, day: u32) -> Result<Date, PyError> {
        if !(1..=9999).contains(&year) {
            return Err(PyError::value_error(format!("year {year} is out of range")));
        }
        if !(1..=12).contains(&month) {
            return Err(PyError::value_error("month must be in 1..12"));
        }
        let date = Date { year: year as u16, month: month as u8, day: 1 };
        if day < 1 || day > u32::from(days_in_month(date.year, date.month)) {
            return Err(PyError::value_error("day is out of range for month"));
        }
        Ok(Date { day: day as u8, ..date })
    }

    /// Days since 0001-01-01 (Python's ordinal minus one).
    fn ordinal(self) -> i64 {
        let y = i64::from(self.year) - 1;
        let mut days = y * 365 + y / 4 - y / 100 + y / 400;
        for m in 1..self.month {
            days += i64::from(days_in_month(self.year, m));
        }
        days + i64::from(self.day) - 1
    }

    /// `str(date)`: `2024-01-31`.
    pub fn iso(&self) -> String {
        format!("{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }

    pub fn repr(&self) -> String {
        format!("datetime.date({}, {}, {})", self.year, self.month, self.day)
    }
}

impl DateTime {
    /// `datetime.datetime(...)` with a `timezone(offset)`, checked in
    /// Python's order (the offset first, as PyYAML builds it first).
    pub fn new(fields: [u32; 7], offset: Option<i32>) -> Result<DateTime, PyError> {
        let [year, month, day, hour, minute, second, microsecond] = fields;
        if let Some(secs) = offset {
            if secs.abs() >= 86_400 {
                return Err(PyError::value_error(format!(
                    "offset must be a timedelta strictly between -timedelta(hours=24) and timedelta(hours=24), not {}.",
                    timedelta_repr(secs)
                )));
            }
        }
        let date = Date::new(year, month, day)?;
        if hour > 23 {
            return Err(PyError::value_error("hour must be in 0..23"));
        }
        if minute > 59 {
            return Err(PyError::value_error("minute must be in 0..59"));
        }
        if second > 59 {
            return Err(PyError::value_error("second must be in 0..59"));
        }
        if microsecond > 999_999 {
            return Err(PyError::value_error("microsecond must be in 0..999999"));
        }
        Ok(DateTime { date, hour: hour as u8, minute: minute as u8, second: second as u8, microsecond, offset })
    }

    /// Microseconds since 0001-01-01 in UTC (aware) or wall time (naive).
    fn instant(&self) -> i128 {
        let secs = self.date.ordinal() * 86_400
            + i64::from(self.hour) * 3600
            + i64::from(self.minute) * 60
            + i64::from(self.second)
            - i64::from(self.offset.unwrap_or(0));
        i128::from(secs) * 1_000_000 + i128::from(self.microsecond)
    }

    /// `str(datetime)`: `2024-01-31 10:00:00.500000+01:00`.
    pub fn iso(&self) -> String {
        let mut s = format!("{} {:02}:{:02}:{:02}", self.date.iso(), self.hour, self.minute, self.second);
        if self.microsecond != 0 {
            let _ = write!(s, ".{:06}", self.microsecond);
        }
        if let Some(secs) = self.offset {
            let sign = if secs < 0 { '-' } else { '+' };
            let abs = secs.unsigned_abs();
            let _ = write!(s, "{sign}{:02}:{:02}", abs / 3600, abs % 3600 / 60);
        }
        s
    }

    pub fn repr(&self) -> String {
        let mut fields = vec![
            u32::from(self.date.year),
            u32::from(self.date.month),
            u32::from(self.date.day),
            u32::from(self.hour),
            u32::from(self.minute),
            u32::from(self.second),
            self.microsecond,
        ];
        for _ in 0..2 {
            if fields.last() == Some(&0) {
                fields.pop();
            }
        }
        let list: Vec<String> = fields.iter().map(u32::to_string).collect();
        match self.offset {
            None => format!("datetime.datetime({})", list.join(", ")),
            Some(0) => format!("datetime.datetime({}, tzinfo=datetime.timezone.utc)", list.join(", ")),
            Some(secs) => {
                format!("datetime.datetime({}, tzinfo=datetime.timezone({}))", list.join(", "), timedelta_repr(secs))
            }
        }
    }
}

/// `repr(timedelta(seconds=secs))`, normalised as Python does.
fn timedelta_repr(secs: i32) -> String {
    let (days, rest) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    match (days, rest) {
        (0, 0) => "datetime.timedelta(0)".into(),
        (0, s) => format!("datetime.timedelta(seconds={s})"),
        (d, 0) => format!("datetime.timedelta(days={d})"),
        (d, s) => format!("datetime.timedelta(days={d}, seconds={s})"),
    }
}

/// Python compares aware datetimes by instant, naive ones by wall time,
/// and a naive one never equals an aware one.
impl PartialEq for DateTime {
    fn eq(&self, other: &Self) -> bool {
        self.offset.is_some() == other.offset.is_some() && self.instant() == other.instant()
    }
}

impl Eq for DateTime {}

impl Hash for DateTime {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.instant().hash(state);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_validate_like_python() {
        assert_eq!(Date::new(2024, 2, 29).unwrap().iso(), "2024-02-29");
        assert_eq!(Date::new(2023, 2, 29).unwrap_err().traceback_line(), "ValueError: day is out of range for month");
        assert_eq!(Date::new(2024, 13, 1).unwrap_err().traceback_line(), "ValueError: month must be in 1..12");
        assert_eq!(Date::new(0, 1, 1).unwrap_err().traceback_line(), "ValueError: year 0 is out of range");
        assert_eq!(Date::new(5, 1, 1).unwrap().iso(), "0005-01-01");
    }

    #[test]
    fn datetimes_print_like_python() {
        let dt = DateTime::new([2024, 1, 1, 10, 0, 0, 0], Some(3600)).unwrap();
        assert_eq!(dt.iso(), "2024-01-01 10:00:00+01:00");
        assert_eq!(
            dt.repr(),
            "datetime.datetime(2024, 1, 1, 10, 0, tzinfo=datetime.timezone(datetime.timedelta(seconds=3600)))"
        );
        let neg = DateTime::new([2024, 1, 1, 10, 0, 5, 120], Some(-3600)).unwrap();
        assert_eq!(neg.iso(), "2024-01-01 10:00:05.000120-01:00");
        assert_eq!(
            neg.repr(),
            "datetime.datetime(2024, 1, 1, 10, 0, 5, 120, tzinfo=datetime.timezone(datetime.timedelta(days=-1, seconds=82800)))"
        );
        let utc = DateTime::new([2024, 1, 1, 0, 0, 0, 0], Some(0)).unwrap();
        assert_eq!(utc.repr(), "datetime.datetime(2024, 1, 1, 0, 0, tzinfo=datetime.timezone.utc)");
        assert_eq!(
            DateTime::new([2024, 1, 1, 0, 0, 0, 0], Some(90_000)).unwrap_err().traceback_line(),
            "ValueError: offset must be a timedelta strictly between -timedelta(hours=24) and timedelta(hours=24), not datetime.timedelta(days=1, seconds=3600)."
        );
        assert_eq!(
            DateTime::new([2024, 1, 1, 24, 0, 0, 0], None).unwrap_err().traceback_line(),
            "ValueError: hour must be in 0..23"
        );
    }

    #[test]
    fn aware_datetimes_compare_by_instant() {
        let a = DateTime::new([2024, 1, 1, 10, 0, 0, 0], Some(3600)).unwrap();
        let b = DateTime::new([2024, 1, 1, 9, 0, 0, 0], Some(0)).unwrap();
        let naive = DateTime::new([2024, 1, 1, 9, 0, 0, 0], None).unwrap();
        assert_eq!(a, b);
        assert_ne!(b, naive);
    }
}
