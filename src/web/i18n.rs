//! Dutch and English for the pages. The club is Dutch: Dutch is the default, and the rule
//! terms (Keizer, plusremise, afgemeld, reglementair) stay Dutch in English too.

use chrono::NaiveDate;
use clubcomp_core::vocab::{ResultCode, RoundStatus};
use clubcomp_engine::{CompetitionKind, Discipline, EveningKind, Half, PairingSystem};

/// A page language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lang {
    /// Dutch (the default).
    Nl,
    /// English.
    En,
}

impl Lang {
    /// `nl` or `en` (case-insensitive).
    pub fn parse(s: &str) -> Option<Lang> {
        match s.to_ascii_lowercase().as_str() {
            "nl" => Some(Lang::Nl),
            "en" => Some(Lang::En),
            _ => None,
        }
    }

    /// The language tag.
    pub fn code(self) -> &'static str {
        match self {
            Lang::Nl => "nl",
            Lang::En => "en",
        }
    }

    /// The Dutch or the English text.
    pub fn t(self, nl: &'static str, en: &'static str) -> &'static str {
        match self {
            Lang::Nl => nl,
            Lang::En => en,
        }
    }

    /// A date with its weekday, e.g. `vrijdag 11 september 2026` / `Friday 11 September 2026`.
    pub fn date(self, d: NaiveDate) -> String {
        clubcomp_core::calendar_names::long_date(self == Lang::En, d)
    }

    /// A short date, e.g. `11 sep` / `11 Sep`.
    pub fn short_date(self, d: NaiveDate) -> String {
        clubcomp_core::calendar_names::short_date(self == Lang::En, d)
    }

    /// The name of an evening kind.
    pub fn evening_kind(self, kind: EveningKind) -> &'static str {
        match kind {
            EveningKind::Keizer => "Keizer",
            EveningKind::Rapid => self.t("Rapid", "Rapid"),
            EveningKind::Closed => self.t("Gesloten", "Closed"),
            EveningKind::Playoff => self.t("Play-off", "Play-off"),
            EveningKind::Blitz => self.t("Snelschaken", "Blitz"),
            EveningKind::Free => self.t("Vrij spelen", "Free play"),
        }
    }

    /// The name of a competition kind (with its system).
    pub fn competition_kind(
        self,
        kind: CompetitionKind,
        system: Option<PairingSystem>,
    ) -> &'static str {
        use CompetitionKind as K;
        match (kind, system) {
            (K::Keizer, _) => self.t("Keizercompetitie", "Keizer competition"),
            (K::Swiss, Some(PairingSystem::DoubleSwiss)) => {
                self.t("Double-Swiss (rapid)", "Double-Swiss (rapid)")
            }
            (K::Swiss, _) => self.t("Zwitsers systeem", "Swiss system"),
            (K::RoundRobin, Some(PairingSystem::Double)) => {
                self.t("Dubbelrondig gesloten toernooi", "Double round robin")
            }
            (K::RoundRobin, _) => self.t("Gesloten toernooi", "Round robin"),
            (K::Knockout, _) => self.t("Play-offs (knock-out)", "Play-offs (knockout)"),
        }
    }

    /// The name of a half.
    pub fn half(self, half: Half) -> &'static str {
        match half {
            Half::Winter => self.t("winterhelft", "winter half"),
            Half::Summer => self.t("zomerhelft", "summer half"),
        }
    }

    /// The name of a discipline.
    pub fn discipline(self, discipline: Discipline) -> &'static str {
        match discipline {
            Discipline::Chess => self.t("schaken", "chess"),
            Discipline::Draughts => self.t("dammen", "draughts"),
        }
    }

    /// The name of a round status.
    pub fn status(self, status: RoundStatus) -> &'static str {
        match status {
            RoundStatus::Planned => self.t("gepland", "planned"),
            RoundStatus::Paired => self.t(
                "ingedeeld (nog niet gepubliceerd)",
                "paired (not yet published)",
            ),
            RoundStatus::Published => self.t("gepubliceerd", "published"),
            RoundStatus::Completed => self.t("afgesloten", "completed"),
        }
    }

    /// How a result code reads on a page: `½` for halves; a bye, forfeits (reglementair) and
    /// the draughts remises named.
    pub fn result(self, code: ResultCode) -> String {
        match code {
            ResultCode::Bye => self.t("vrij", "bye").into(),
            ResultCode::WhiteForfeitWin => "+/− (reglementair)".into(),
            ResultCode::BlackForfeitWin => "−/+ (reglementair)".into(),
            ResultCode::DoubleForfeit => "−/− (reglementair)".into(),
            ResultCode::WhitePlusremise => "1+ – 1− (plusremise)".into(),
            ResultCode::BlackPlusremise => "1− – 1+ (plusremise)".into(),
            other => other.shown().into(),
        }
    }

    /// The name of a prize.
    pub fn prize(self, p: clubcomp_engine::keizer::Prize) -> &'static str {
        use clubcomp_engine::keizer::Prize;
        match p {
            Prize::WinterChampion => self.t("Winterkampioen", "Winter champion"),
            Prize::Silver => self.t("Zilver (2e)", "Silver (2nd)"),
            Prize::Bronze => self.t("Brons (3e)", "Bronze (3rd)"),
            Prize::BestOfTheRest => self.t("Beste van de rest", "Best of the rest"),
            Prize::SummerChampion => self.t("Zomerkampioen", "Summer champion"),
        }
    }
}

/// The language an `Accept-Language` header prefers among Dutch and English (by q-value,
/// then order); Dutch when it names neither. Only the first 32 entries are read.
pub fn from_accept_language(header: Option<&str>) -> Lang {
    let Some(h) = header else { return Lang::Nl };
    let mut best: Option<(f32, Lang)> = None;
    for part in h.split(',').take(32) {
        let mut it = part.split(';').map(str::trim);
        let tag = it.next().unwrap_or("");
        let q = it
            .find_map(|p| p.strip_prefix("q="))
            .and_then(|q| q.parse::<f32>().ok())
            .unwrap_or(1.0);
        let primary = tag.split('-').next().unwrap_or("");
        let Some(lang) = Lang::parse(primary) else {
            continue;
        };
        if q > 0.0 && best.is_none_or(|(bq, _)| q > bq) {
            best = Some((q, lang));
        }
    }
    best.map_or(Lang::Nl, |(_, l)| l)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accept_language_picks_by_quality() {
        assert_eq!(from_accept_language(None), Lang::Nl);
        assert_eq!(from_accept_language(Some("de-DE,de;q=0.9")), Lang::Nl);
        assert_eq!(
            from_accept_language(Some("en-GB,en;q=0.9,nl;q=0.8")),
            Lang::En
        );
        assert_eq!(
            from_accept_language(Some("en;q=0.5, nl-BE;q=0.7")),
            Lang::Nl
        );
        assert_eq!(from_accept_language(Some("fr, en;q=0")), Lang::Nl);
    }

    #[test]
    fn dates_read_in_both_languages() {
        let d = NaiveDate::from_ymd_opt(2026, 9, 11).unwrap();
        assert_eq!(Lang::Nl.date(d), "vrijdag 11 september 2026");
        assert_eq!(Lang::En.date(d), "Friday 11 September 2026");
        assert_eq!(Lang::Nl.short_date(d), "11 sep");
    }
}
