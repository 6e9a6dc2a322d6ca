//! Colours and styles, by meaning. Colour depth follows the terminal:
//! truecolor when `COLORTERM` says so, the nearest of 256 colours when
//! `TERM` (or `COLORTERM`) says the terminal has them, else the nearest of
//! the 16 standard colours, and none at all under `NO_COLOR` or
//! `TERM=dumb` (selection and matches then rely on reverse video, bold and
//! underline, which stay visible).

use ratatui::style::{Color, Modifier, Style};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColorMode {
    TrueColor,
    Ansi256,
    Ansi16,
    NoColor,
}

impl ColorMode {
    /// From the environment: `NO_COLOR` (non-empty) wins, then `COLORTERM`,
    /// then `TERM`.
    pub fn detect(no_color: Option<&str>, colorterm: Option<&str>, term: Option<&str>) -> ColorMode {
        if no_color.is_some_and(|v| !v.is_empty()) {
            return ColorMode::NoColor;
        }
        let colorterm = colorterm.map(str::to_ascii_lowercase).unwrap_or_default();
        let term = term.map(str::to_ascii_lowercase).unwrap_or_default();
        if colorterm == "truecolor" || colorterm == "24bit" {
            ColorMode::TrueColor
        } else if term == "dumb" {
            ColorMode::NoColor
        } else if !colorterm.is_empty() || term.contains("256color") || term.contains("direct") {
            ColorMode::Ansi256
        } else {
            ColorMode::Ansi16
        }
    }

    pub fn from_env() -> ColorMode {
        let var = |k| std::env::var(k).ok();
        ColorMode::detect(var("NO_COLOR").as_deref(), var("COLORTERM").as_deref(), var("TERM").as_deref())
    }

    /// An RGB colour as this mode can show it.
    pub fn color(self, (r, g, b): (u8, u8, u8)) -> Option<Color> {
        match self {
            ColorMode::TrueColor => Some(Color::Rgb(r, g, b)),
            ColorMode::Ansi256 => Some(Color::Indexed(nearest_256(r, g, b))),
            ColorMode::Ansi16 => Some(nearest_16(r, g, b)),
            ColorMode::NoColor => None,
        }
    }
}

/// The nearest xterm-256 index: the 6x6x6 cube or the grey ramp.
pub fn nearest_256(r: u8, g: u8, b: u8) -> u8 {
    const LEVELS: [u8; 6] = [0, 95, 135, 175, 215, 255];
    let level = |v: u8| {
        LEVELS.iter().enumerate().min_by_key(|(_, l)| (i32::from(**l) - i32::from(v)).abs()).map_or(0, |(i, _)| i)
    };
    let (ri, gi, bi) = (level(r), level(g), level(b));
    let cube = (LEVELS[ri], LEVELS[gi], LEVELS[bi]);
    let dist = |(x, y, z): (u8, u8, u8)| {
        let d = |a: u8, b: u8| (i32::from(a) - i32::from(b)).pow(2);
        d(x, r) + d(y, g) + d(z, b)
    };
    let avg = (u32::from(r) + u32::from(g) + u32::from(b)) / 3;
    let grey_i = ((avg.saturating_sub(8)) / 10).min(23) as u8;
    let grey_v = 8 + grey_i * 10;
    if dist((grey_v, grey_v, grey_v)) < dist(cube) {
        232 + grey_i
    } else {
        16 + 36 * ri as u8 + 6 * gi as u8 + bi as u8
    }
}

/// The standard terminal colour closest in kind: greys by lightness,
/// others by hue, the light variant for light colours. Palettes differ
/// between terminals, so hue is a better guide than RGB distance.
pub fn nearest_16(r: u8, g: u8, b: u8) -> Color {
    let (r, g, b) = (i32::from(r), i32::from(g), i32::from(b));
    let max = r.max(g).max(b);
    let min = r.min(g).min(b);
    if max - min < 48 {
        return match max {
            0..=63 => Color::Black,
            64..=159 => Color::DarkGray,
            160..=223 => Color::Gray,
            _ => Color::White,
        };
    }
    let span = f64::from(max - min);
    let hue = if max == r {
        60.0 * (f64::from(g - b) / span)
    } else if max == g {
        60.0 * (f64::from(b - r) / span) + 120.0
    } else {
        60.0 * (f64::from(r - g) / span) + 240.0
    };
    let hue = hue.rem_euclid(360.0);
    let light = max >= 200;
    let pick = |dark: Color, bright: Color| if light { bright } else { dark };
    match hue {
        h if !(30.0..330.0).contains(&h) => pick(Color::Red, Color::LightRed),
        h if h < 90.0 => pick(Color::Yellow, Color::LightYellow),
        h if h < 150.0 => pick(Color::Green, Color::LightGreen),
        h if h < 200.0 => pick(Color::Cyan, Color::LightCyan),
        h if h < 270.0 => pick(Color::Blue, Color::LightBlue),
        _ => pick(Color::Magenta, Color::LightMagenta),
    }
}

/// Style slots used by every widget.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Theme {
    pub mode: ColorMode,
    pub text: Style,
    pub dim: Style,
    pub accent: Style,
    pub selected: Style,
    pub matched: Style,
    pub border: Style,
    pub border_focused: Style,
    pub ok: Style,
    pub warn: Style,
    pub error: Style,
    pub heading: Style,
    pub code: Style,
    pub link: Style,
    pub quote: Style,
    pub banner: Style,
    pub tab_active: Style,
}

impl Theme {
    pub fn new(mode: ColorMode) -> Theme {
        let fg = |rgb| Style::default().fg(mode.color(rgb).unwrap_or(Color::Reset));
        let plain = Style::default();
        let colored = |rgb| if mode == ColorMode::NoColor { plain } else { fg(rgb) };
        Theme {
            mode,
            text: plain,
            dim: if mode == ColorMode::NoColor { plain.add_modifier(Modifier::DIM) } else { fg((128, 128, 140)) },
            accent: colored((97, 175, 239)).add_modifier(Modifier::BOLD),
            selected: plain.add_modifier(Modifier::REVERSED).add_modifier(Modifier::BOLD),
            matched: colored((229, 192, 123)).add_modifier(Modifier::BOLD).add_modifier(Modifier::UNDERLINED),
            border: colored((90, 90, 100)),
            border_focused: colored((97, 175, 239)).add_modifier(Modifier::BOLD),
            ok: colored((152, 195, 121)),
            warn: colored((229, 192, 123)).add_modifier(Modifier::BOLD),
            error: colored((224, 108, 117)).add_modifier(Modifier::BOLD),
            heading: colored((198, 120, 221)).add_modifier(Modifier::BOLD),
            code: colored((152, 195, 121)),
            link: colored((86, 182, 194)).add_modifier(Modifier::UNDERLINED),
            quote: colored((128, 128, 140)).add_modifier(Modifier::ITALIC),
            banner: if mode == ColorMode::NoColor {
                plain.add_modifier(Modifier::REVERSED)
            } else {
                Style::default().fg(Color::Black).bg(mode.color((229, 192, 123)).unwrap_or(Color::Reset))
            },
            tab_active: plain.add_modifier(Modifier::REVERSED).add_modifier(Modifier::BOLD),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detection() {
        assert_eq!(ColorMode::detect(Some("1"), Some("truecolor"), None), ColorMode::NoColor);
        assert_eq!(ColorMode::detect(Some(""), Some("truecolor"), None), ColorMode::TrueColor);
        assert_eq!(ColorMode::detect(None, None, Some("xterm")), ColorMode::Ansi16);
        assert_eq!(ColorMode::detect(None, None, Some("xterm-256color")), ColorMode::Ansi256);
        assert_eq!(ColorMode::detect(None, Some("yes"), Some("xterm")), ColorMode::Ansi256);
        assert_eq!(ColorMode::detect(None, None, Some("dumb")), ColorMode::NoColor);
        assert_eq!(ColorMode::detect(None, None, None), ColorMode::Ansi16);
    }

    #[test]
    fn nearest_colors() {
        assert_eq!(nearest_256(0, 0, 0), 16);
        assert_eq!(nearest_256(255, 255, 255), 231);
        assert_eq!(nearest_256(128, 128, 128), 244);
        assert_eq!(nearest_256(255, 0, 0), 196);
    }

    #[test]
    fn sixteen_colours_use_only_the_standard_ones() {
        let t = Theme::new(ColorMode::Ansi16);
        for style in [t.text, t.dim, t.accent, t.ok, t.warn, t.error, t.heading, t.code, t.link, t.banner, t.border] {
            for c in [style.fg, style.bg].into_iter().flatten() {
                assert!(!matches!(c, Color::Indexed(_) | Color::Rgb(..)), "{c:?}");
            }
        }
        assert_eq!(nearest_16(224, 108, 117), Color::LightRed);
        assert_eq!(nearest_16(97, 175, 239), Color::LightBlue);
        assert_eq!(nearest_16(229, 192, 123), Color::LightYellow);
        assert_eq!(nearest_16(152, 195, 121), Color::Green);
        assert_eq!(nearest_16(128, 128, 140), Color::DarkGray);
        assert_eq!(nearest_16(255, 0, 0), Color::LightRed);
    }

    #[test]
    fn no_color_keeps_selection_visible() {
        let t = Theme::new(ColorMode::NoColor);
        assert!(t.selected.add_modifier.contains(Modifier::REVERSED));
        assert!(t.matched.add_modifier.contains(Modifier::UNDERLINED));
        assert_eq!(t.accent.fg, None);
    }
}
