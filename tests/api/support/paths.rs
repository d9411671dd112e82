//! Every URL of the API and the club pages that the tests call, built in one place. A test
//! that sends an odd request on purpose (a malformed path, a query string under test) writes
//! it by hand.

use std::fmt::Display;

const API: &str = "/api/v1";

pub const LOGIN: &str = "/api/v1/auth/login";
pub const REFRESH: &str = "/api/v1/auth/refresh";
pub const LOGOUT: &str = "/api/v1/auth/logout";
pub const LOGOUT_ALL: &str = "/api/v1/auth/logout-all";
pub const ME: &str = "/api/v1/auth/me";
/// The member page.
pub const MEMBER_PAGE: &str = "/api/v1/me";
/// Everything the club holds about the caller.
pub const ME_EXPORT: &str = "/api/v1/me/export";
/// How the caller's name is published.
pub const ME_PUBLICATION: &str = "/api/v1/me/publication";
pub const USERS: &str = "/api/v1/users";
pub const SERVICE_TOKENS: &str = "/api/v1/service-tokens";
pub const WEBHOOKS: &str = "/api/v1/webhooks";
pub const PLAYERS: &str = "/api/v1/players";
pub const RATINGS: &str = "/api/v1/ratings";
pub const SEASONS: &str = "/api/v1/seasons";
/// The calendar's evenings across seasons (filtered and paged by a query string).
pub const EVENINGS: &str = "/api/v1/evenings";
pub const NEXT_EVENING: &str = "/api/v1/evenings/next";
pub const HEALTH: &str = "/healthz";
pub const READY: &str = "/readyz";
pub const CLUB: &str = "/club/";

/// The pairing calculator with `system`.
pub fn calc_pair(system: impl Display) -> String {
    format!("{API}/calc/pair?system={system}")
}

/// A calculator: `keizer`, `keizer-pairing`, `keizer-prizes`, `round-robin`, `tiebreaks`,
/// `pair`, `swiss-playoff`, `blitz-rounds`.
pub fn calc(name: &str) -> String {
    format!("{API}/calc/{name}")
}

pub fn user(id: impl Display) -> String {
    format!("{API}/users/{id}")
}

pub fn user_password(id: impl Display) -> String {
    format!("{API}/users/{id}/password")
}

pub fn service_token(id: impl Display) -> String {
    format!("{API}/service-tokens/{id}")
}

pub fn player(id: impl Display) -> String {
    format!("{API}/players/{id}")
}

/// Erasing a former member.
pub fn erase_player(id: impl Display) -> String {
    format!("{API}/players/{id}/erase")
}

pub fn player_games(id: impl Display) -> String {
    format!("{API}/players/{id}/games")
}

pub fn player_ratings(id: impl Display) -> String {
    format!("{API}/players/{id}/ratings")
}

/// A player's rating from `source` on `date` (both as sent, already escaped).
pub fn player_rating(id: impl Display, source: &str, date: impl Display) -> String {
    format!("{API}/players/{id}/rating?source={source}&date={date}")
}

/// The KNSB rating-list import for the list of `list_date` (as sent, already escaped).
pub fn knsb_import(list_date: impl Display) -> String {
    format!("{API}/ratings/knsb-import?list_date={list_date}")
}

pub fn season_competitions(season: impl Display) -> String {
    format!("{API}/seasons/{season}/competitions")
}

pub fn calendar(season: impl Display) -> String {
    format!("{API}/seasons/{season}/calendar")
}

pub fn calendar_ics(season: impl Display) -> String {
    format!("{API}/seasons/{season}/calendar.ics")
}

pub fn evenings(season: impl Display) -> String {
    format!("{API}/seasons/{season}/evenings")
}

pub fn evening(id: impl Display) -> String {
    format!("{API}/evenings/{id}")
}

pub fn season_playoffs(season: impl Display) -> String {
    format!("{API}/seasons/{season}/playoffs")
}

pub fn competition(id: impl Display) -> String {
    format!("{API}/competitions/{id}")
}

pub fn entrants(comp: impl Display) -> String {
    format!("{API}/competitions/{comp}/entrants")
}

pub fn entrant(comp: impl Display, player: impl Display) -> String {
    format!("{}/{player}", entrants(comp))
}

pub fn withdraw(comp: impl Display, player: impl Display) -> String {
    format!("{API}/competitions/{comp}/entrants/{player}/withdraw")
}

/// An evening's self check-in (`POST` with a code).
pub fn evening_check_in(evening: impl Display) -> String {
    format!("{API}/evenings/{evening}/check-in")
}

pub fn open_evening_check_in(evening: impl Display) -> String {
    format!("{API}/evenings/{evening}/check-in/open")
}

pub fn close_evening_check_in(evening: impl Display) -> String {
    format!("{API}/evenings/{evening}/check-in/close")
}

pub fn evening_check_in_code(evening: impl Display) -> String {
    format!("{API}/evenings/{evening}/check-in-code")
}

pub fn check_in(comp: impl Display) -> String {
    format!("{API}/competitions/{comp}/check-in")
}

pub fn close_check_in(comp: impl Display) -> String {
    format!("{API}/competitions/{comp}/check-in/close")
}

pub fn first_place_playoff(comp: impl Display) -> String {
    format!("{API}/competitions/{comp}/playoff")
}

pub fn playoff_decision(comp: impl Display) -> String {
    format!("{API}/competitions/{comp}/playoff/decision")
}

pub fn competition_audit(comp: impl Display) -> String {
    format!("{API}/competitions/{comp}/audit")
}

pub fn attendance(comp: impl Display) -> String {
    format!("{API}/competitions/{comp}/attendance")
}

pub fn attendance_me(comp: impl Display) -> String {
    format!("{API}/competitions/{comp}/attendance/me")
}

pub fn attendance_deadline(comp: impl Display) -> String {
    format!("{API}/competitions/{comp}/attendance-deadline")
}

pub fn standings(comp: impl Display) -> String {
    format!("{API}/competitions/{comp}/standings")
}

/// The standings after round `after`.
pub fn standings_after(comp: impl Display, after: impl Display) -> String {
    format!("{API}/competitions/{comp}/standings?after={after}")
}

pub fn standings_csv(comp: impl Display) -> String {
    format!("{API}/competitions/{comp}/standings.csv")
}

pub fn trf(comp: impl Display) -> String {
    format!("{API}/competitions/{comp}/trf")
}

pub fn prizes(comp: impl Display) -> String {
    format!("{API}/competitions/{comp}/prizes")
}

pub fn finalize_prizes(comp: impl Display) -> String {
    format!("{API}/competitions/{comp}/prizes/finalize")
}

pub fn playoffs(comp: impl Display) -> String {
    format!("{API}/competitions/{comp}/playoffs")
}

pub fn rounds(comp: impl Display) -> String {
    format!("{API}/competitions/{comp}/rounds")
}

pub fn round(comp: impl Display, number: impl Display) -> String {
    format!("{API}/competitions/{comp}/rounds/{number}")
}

pub fn pairing(comp: impl Display, number: impl Display) -> String {
    format!("{}/pairing", round(comp, number))
}

pub fn publish(comp: impl Display, number: impl Display) -> String {
    format!("{}/publish", round(comp, number))
}

pub fn complete(comp: impl Display, number: impl Display) -> String {
    format!("{}/complete", round(comp, number))
}

pub fn check_ins(comp: impl Display, number: impl Display) -> String {
    format!("{}/check-ins", round(comp, number))
}

pub fn round_attendance(comp: impl Display, number: impl Display) -> String {
    format!("{}/attendance", round(comp, number))
}

pub fn result(game: impl Display) -> String {
    format!("{API}/games/{game}/result")
}

/// A game's own tempo.
pub fn time_control(game: impl Display) -> String {
    format!("{API}/games/{game}/time-control")
}

pub fn moves(game: impl Display) -> String {
    format!("{API}/games/{game}/moves")
}

pub fn events(game: impl Display) -> String {
    format!("{API}/games/{game}/events")
}

pub fn claims(game: impl Display) -> String {
    format!("{API}/games/{game}/claims")
}

pub fn game_appeals(game: impl Display) -> String {
    format!("{API}/games/{game}/appeals")
}

pub fn game_audit(game: impl Display) -> String {
    format!("{API}/games/{game}/audit")
}

pub fn claim_decision(claim: impl Display) -> String {
    format!("{API}/claims/{claim}/decision")
}

pub fn claim_appeal(claim: impl Display) -> String {
    format!("{API}/claims/{claim}/appeal")
}

pub fn event_appeal(event: impl Display) -> String {
    format!("{API}/events/{event}/appeal")
}

pub fn appeal_decision(appeal: impl Display) -> String {
    format!("{API}/appeals/{appeal}/decision")
}

/// The club pages.
pub mod club {
    use std::fmt::Display;

    pub fn season(id: impl Display) -> String {
        format!("/club/seasons/{id}")
    }

    pub fn calendar(season: impl Display) -> String {
        format!("/club/seasons/{season}/calendar")
    }

    pub fn competition(id: impl Display) -> String {
        format!("/club/competitions/{id}")
    }

    pub fn standings(comp: impl Display) -> String {
        format!("/club/competitions/{comp}/standings")
    }

    pub fn prizes(comp: impl Display) -> String {
        format!("/club/competitions/{comp}/prizes")
    }

    pub fn attendance(comp: impl Display) -> String {
        format!("/club/competitions/{comp}/attendance")
    }

    pub fn evening(id: impl Display) -> String {
        format!("/club/evenings/{id}")
    }

    pub fn slips(evening: impl Display) -> String {
        format!("/club/evenings/{evening}/slips")
    }

    pub fn player(id: impl Display) -> String {
        format!("/club/players/{id}")
    }

    /// The sign-in page of the club pages.
    pub const SIGN_IN: &str = "/club/sign-in";

    /// The venue screen.
    pub const SCREEN: &str = "/club/screen";

    pub fn check_in(evening: impl Display) -> String {
        format!("/club/evenings/{evening}/check-in")
    }

    pub fn member_check_in(evening: impl Display, code: &str) -> String {
        format!("/club/evenings/{evening}/check-in/{code}")
    }

    pub fn game_report(game: impl Display) -> String {
        format!("/club/games/{game}/report")
    }
}

/// The changes feed with a query string (`after=…&types=…&limit=…`, or empty).
pub fn changes(query: &str) -> String {
    if query.is_empty() {
        format!("{API}/changes")
    } else {
        format!("{API}/changes?{query}")
    }
}

pub fn player_card(id: impl Display) -> String {
    format!("{API}/players/{id}/card")
}

/// One webhook subscription.
pub fn webhook(id: impl Display) -> String {
    format!("{API}/webhooks/{id}")
}

/// A webhook subscription's delivery log, with a query string (or empty).
pub fn webhook_deliveries(id: impl Display, query: &str) -> String {
    if query.is_empty() {
        format!("{API}/webhooks/{id}/deliveries")
    } else {
        format!("{API}/webhooks/{id}/deliveries?{query}")
    }
}

/// The redelivery of one delivery.
pub fn redeliver(id: impl Display, delivery: impl Display) -> String {
    format!("{API}/webhooks/{id}/deliveries/{delivery}/redeliver")
}
/// The live event stream with a query string (`competition=…&types=…&after=…`, or empty).
pub fn stream(query: &str) -> String {
    if query.is_empty() {
        format!("{API}/stream")
    } else {
        format!("{API}/stream?{query}")
    }
}

/// `POST`: a protest to the KNDB protest committee against a claim's decision.
pub fn claim_protest(claim: impl Display) -> String {
    format!("{API}/claims/{claim}/protest")
}

/// `POST`: a protest against a decision event.
pub fn event_protest(event: impl Display) -> String {
    format!("{API}/events/{event}/protest")
}

/// `GET`: the protests about a game.
pub fn game_protests(game: impl Display) -> String {
    format!("{API}/games/{game}/protests")
}

/// `GET`: the protests in a competition's games.
pub fn competition_protests(comp: impl Display) -> String {
    format!("{API}/competitions/{comp}/protests")
}

/// `POST`: the committee's ruling on a protest.
pub fn protest_decision(protest: impl Display) -> String {
    format!("{API}/protests/{protest}/decision")
}
