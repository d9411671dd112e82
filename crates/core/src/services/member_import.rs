//! The member list in one go ([decision 0323](../../../../docs/decisions/0323-member-import.md)):
//! rows of name, e-mail address, KNSB number, membership, rating and language, from CSV or
//! JSON. Each row's player is found by KNSB number, then by address, or created; each gets a
//! member account of that address, linked to it, without a password until the member accepts
//! an invitation. All rows or none: every bad row is named with its column. The same list
//! imported again changes nothing.

use crate::error::{ApiError, ApiResult, FieldError};
use crate::ids::{PlayerId, UserId};
use crate::mail_config::MailSettings;
use crate::services::account_links::{self, Invited};
use crate::services::players::{self, NewPlayer, Player, PlayerChanges};
use crate::services::ratings;
use crate::store::DbConn;
use crate::store::models::users::{self, NewUser, User};
use crate::store::schema::{account_tokens as at, players as pl};
use chrono::{NaiveDate, NaiveDateTime};
use clubcomp_engine::Membership;
use diesel::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use utoipa::ToSchema;

/// The most rows one import holds.
pub const MAX_ROWS: usize = 1000;
/// The largest CSV file an import takes.
pub const MAX_CSV_BYTES: usize = 512 * 1024;
/// The columns of the CSV, in any order; the first three must be there.
pub const COLUMNS: [&str; 6] = [
    "name",
    "email",
    "knsb_number",
    "membership",
    "rating",
    "language",
];
/// The stored password of an account that has none yet: no password matches it.
pub const NO_PASSWORD: &str = "!none";
/// The lowest and highest rating a row may give.
pub const RATINGS: (i32, i32) = (100, 3000);

/// One member of the list, as JSON sends it.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MemberRow {
    /// The player's name (at most 200 characters).
    pub name: String,
    /// The member's e-mail address, also the account's login name.
    pub email: String,
    /// The KNSB membership number (1–12 digits), when they have one.
    #[serde(default)]
    pub knsb_number: Option<String>,
    /// `fixed` or `flexible`.
    #[schema(value_type = crate::schemas::Membership)]
    pub membership: String,
    /// The KNSB rating, stored as of the import's date when it differs from the last one
    /// (needs `knsb_number`).
    #[serde(default)]
    pub rating: Option<i32>,
    /// The language of the member's mails: `nl` or `en`.
    #[serde(default)]
    #[schema(value_type = Option<MailLanguage>)]
    pub language: Option<String>,
}

/// The languages of the club's mails.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum MailLanguage {
    /// Dutch.
    Nl,
    /// English.
    En,
}

/// A row checked.
#[derive(Debug, Clone)]
struct Checked {
    name: String,
    email: String,
    knsb: Option<String>,
    membership: Membership,
    rating: Option<i32>,
    language: Option<&'static str>,
}

/// Where a row's errors are named: `line N, column C` of a CSV, `members[i].C` of JSON.
#[derive(Debug, Clone, Copy)]
pub enum Origin {
    /// A CSV line (1 is the header).
    Line(usize),
    /// An index into `members`.
    Index(usize),
}

impl Origin {
    fn field(self, column: &str) -> String {
        match self {
            Origin::Line(n) => format!("line {n}, column {column}"),
            Origin::Index(i) => format!("members[{i}].{column}"),
        }
    }
}

/// Reads a CSV member list (comma or semicolon separated, UTF-8 with or without BOM, a header
/// naming the columns) into rows, each with its line.
pub fn parse_csv(bytes: &[u8]) -> ApiResult<Vec<(Origin, MemberRow)>> {
    if bytes.len() > MAX_CSV_BYTES {
        return Err(ApiError::invalid(
            "file",
            format!("must be at most {MAX_CSV_BYTES} bytes"),
        ));
    }
    let text = std::str::from_utf8(bytes)
        .map_err(|_| ApiError::invalid("file", "must be UTF-8 text"))?
        .trim_start_matches('\u{feff}');
    let first = text.lines().next().unwrap_or_default();
    let delimiter = if first.contains(';') && !first.contains(',') {
        b';'
    } else {
        b','
    };
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let header: Vec<String> = reader
        .headers()
        .map_err(|_| ApiError::invalid("line 1", "is not a CSV header"))?
        .iter()
        .map(|h| h.to_lowercase())
        .collect();
    let mut at = HashMap::new();
    for (i, h) in header.iter().enumerate() {
        if !COLUMNS.contains(&h.as_str()) {
            return Err(ApiError::invalid(
                &format!("line 1, column {}", i + 1),
                format!("{h:?} is not a column ({})", COLUMNS.join(", ")),
            ));
        }
        if at.insert(h.clone(), i).is_some() {
            return Err(ApiError::invalid(
                &format!("line 1, column {}", i + 1),
                format!("names {h:?} a second time"),
            ));
        }
    }
    for needed in ["name", "email", "membership"] {
        if !at.contains_key(needed) {
            return Err(ApiError::invalid(
                "line 1",
                format!("has no column {needed}"),
            ));
        }
    }
    let mut rows = Vec::new();
    let mut errs = Vec::new();
    for record in reader.records() {
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                let line = e.position().map_or(0, |p| p.line() as usize);
                errs.push(FieldError::new(format!("line {line}"), "is not a CSV row"));
                continue;
            }
        };
        let line = record.position().map_or(0, |p| p.line() as usize);
        if record.iter().all(str::is_empty) {
            continue;
        }
        if rows.len() == MAX_ROWS {
            return Err(ApiError::invalid(
                "file",
                format!("must hold at most {MAX_ROWS} rows"),
            ));
        }
        let cell = |c: &str| {
            at.get(c)
                .and_then(|i| record.get(*i))
                .filter(|v| !v.is_empty())
                .map(str::to_string)
        };
        let rating = match cell("rating").map(|r| r.parse::<i32>()) {
            Some(Err(_)) => {
                errs.push(FieldError::new(
                    Origin::Line(line).field("rating"),
                    "must be a whole number",
                ));
                continue;
            }
            r => r.and_then(Result::ok),
        };
        rows.push((
            Origin::Line(line),
            MemberRow {
                name: cell("name").unwrap_or_default(),
                email: cell("email").unwrap_or_default(),
                knsb_number: cell("knsb_number"),
                membership: cell("membership").unwrap_or_default(),
                rating,
                language: cell("language"),
            },
        ));
    }
    if !errs.is_empty() {
        return Err(ApiError::validation(errs));
    }
    Ok(rows)
}

/// The rows of a JSON list, each with its index.
pub fn from_json(rows: Vec<MemberRow>) -> ApiResult<Vec<(Origin, MemberRow)>> {
    if rows.len() > MAX_ROWS {
        return Err(ApiError::invalid(
            "members",
            format!("must hold at most {MAX_ROWS} rows"),
        ));
    }
    Ok(rows
        .into_iter()
        .enumerate()
        .map(|(i, r)| (Origin::Index(i), r))
        .collect())
}

/// The first problem of a row, named by its column.
fn check_row(origin: Origin, r: &MemberRow) -> Result<Checked, FieldError> {
    let field = |c: &str| origin.field(c);
    let name = crate::services::input::bounded_name(&field("name"), &r.name, 200)
        .map(|_| r.name.trim().to_string())?;
    if !crate::services::users::valid_email(&r.email) {
        return Err(FieldError::new(
            field("email"),
            "is not a valid e-mail address",
        ));
    }
    if let Some(k) = &r.knsb_number
        && (k.is_empty() || k.len() > 12 || !k.chars().all(|c| c.is_ascii_digit()))
    {
        return Err(FieldError::new(field("knsb_number"), "must be 1–12 digits"));
    }
    let membership = match r.membership.trim().to_lowercase().parse::<Membership>() {
        Ok(m @ (Membership::Fixed | Membership::Flexible)) => m,
        _ => {
            return Err(FieldError::new(
                field("membership"),
                "must be fixed or flexible",
            ));
        }
    };
    if let Some(v) = r.rating {
        if !(RATINGS.0..=RATINGS.1).contains(&v) {
            return Err(FieldError::new(
                field("rating"),
                format!("must be from {} to {}", RATINGS.0, RATINGS.1),
            ));
        }
        if r.knsb_number.is_none() {
            return Err(FieldError::new(
                field("rating"),
                "needs the row's knsb_number",
            ));
        }
    }
    let language = match r.language.as_deref().map(|l| l.trim().to_lowercase()) {
        None => None,
        Some(l) if l == "nl" => Some("nl"),
        Some(l) if l == "en" => Some("en"),
        Some(_) => return Err(FieldError::new(field("language"), "must be nl or en")),
    };
    Ok(Checked {
        name,
        email: r.email.trim().to_lowercase(),
        knsb: r.knsb_number.clone(),
        membership,
        rating: r.rating,
        language,
    })
}

/// What an import does (or would do) to a row's player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PlayerAction {
    /// A new player.
    Created,
    /// A player found and changed (name, address or membership).
    Updated,
    /// A player found as the row has it.
    Unchanged,
}

impl PlayerAction {
    /// The name the answer gives it.
    pub fn as_str(self) -> &'static str {
        match self {
            PlayerAction::Created => "created",
            PlayerAction::Updated => "updated",
            PlayerAction::Unchanged => "unchanged",
        }
    }
}

/// What an import does (or would do) to a row's account.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum AccountAction {
    /// A new member account of the row's address, linked to the player.
    Created,
    /// The account of the row's address, linked to the player now.
    Linked,
    /// The player's account as it was.
    Existing,
}

impl AccountAction {
    /// The name the answer gives it.
    pub fn as_str(self) -> &'static str {
        match self {
            AccountAction::Created => "created",
            AccountAction::Linked => "linked",
            AccountAction::Existing => "existing",
        }
    }
}

/// One row's outcome.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ImportedRow {
    /// The row's name.
    pub name: String,
    /// The player (absent in a dry run for a player still to be created).
    #[schema(value_type = Option<i64>)]
    #[schema(required = true)]
    pub player_id: Option<PlayerId>,
    /// What happens to the player.
    pub player: PlayerAction,
    /// What happens to the account.
    pub account: AccountAction,
    /// Whether the account is invited (with `invite=true`).
    pub invited: bool,
}

/// What an import did, or would do (`dry_run`).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ImportReport {
    /// Whether nothing was written.
    pub dry_run: bool,
    /// Players created.
    pub players_created: u32,
    /// Players found and changed.
    pub players_updated: u32,
    /// Accounts created.
    pub accounts_created: u32,
    /// Invitations queued.
    pub invited: u32,
    /// One per row, in the list's order.
    pub rows: Vec<ImportedRow>,
}

/// A row's plan.
struct Step {
    row: Checked,
    player: Option<Player>,
    player_action: PlayerAction,
    account: Option<User>,
    account_action: AccountAction,
    invite: bool,
}

/// The player of a row: by KNSB number, then by address.
fn find_player(c: &mut DbConn, row: &Checked) -> ApiResult<Option<Player>> {
    if let Some(k) = &row.knsb
        && let Some(p) = crate::store::models::players::by_knsb_numbers(c, std::slice::from_ref(k))?
            .into_iter()
            .next()
    {
        return Ok(Some(p));
    }
    Ok(pl::table
        .filter(pl::email.eq(&row.email))
        .order(pl::id)
        .select(Player::as_select())
        .first(c)
        .optional()?)
}

/// Whether an account still waits for its first password with a live invitation.
fn invitation_pending(c: &mut DbConn, user: UserId, now: NaiveDateTime) -> ApiResult<bool> {
    let n: i64 = at::table
        .filter(at::user_id.eq(user))
        .filter(at::purpose.eq(account_links::INVITATION))
        .filter(at::used_at.is_null())
        .filter(at::expires_at.gt(now))
        .count()
        .get_result(c)?;
    Ok(n > 0)
}

/// The plan of every row, or every bad row named.
fn plan(
    c: &mut DbConn,
    rows: &[(Origin, MemberRow)],
    invite: bool,
    now: NaiveDateTime,
) -> ApiResult<Vec<Step>> {
    let mut errs = Vec::new();
    let mut steps = Vec::new();
    let (mut emails, mut numbers) = (HashMap::new(), HashMap::new());
    for (origin, raw) in rows {
        let row = match check_row(*origin, raw) {
            Ok(r) => r,
            Err(e) => {
                errs.push(e);
                continue;
            }
        };
        if let Some(first) = emails.insert(row.email.clone(), origin.field("email")) {
            errs.push(FieldError::new(
                origin.field("email"),
                format!("is the address of {first} as well"),
            ));
            continue;
        }
        if let Some(k) = &row.knsb
            && let Some(first) = numbers.insert(k.clone(), origin.field("knsb_number"))
        {
            errs.push(FieldError::new(
                origin.field("knsb_number"),
                format!("is the number of {first} as well"),
            ));
            continue;
        }
        let player = find_player(c, &row)?;
        let player_action = match &player {
            None => PlayerAction::Created,
            Some(p)
                if p.name == row.name
                    && p.email.as_deref() == Some(row.email.as_str())
                    && p.membership == row.membership
                    && (row.knsb.is_none() || p.knsb_number == row.knsb) =>
            {
                PlayerAction::Unchanged
            }
            Some(_) => PlayerAction::Updated,
        };
        let by_address = users::by_email(c, &row.email)?;
        let of_player = match &player {
            Some(p) => crate::store::schema::users::table
                .filter(crate::store::schema::users::player_id.eq(p.id))
                .select(User::as_select())
                .first(c)
                .optional()?,
            None => None,
        };
        let (account, account_action) = match (by_address, of_player) {
            (Some(u), _)
                if u.player_id.is_some() && u.player_id != player.as_ref().map(|p| p.id) =>
            {
                errs.push(FieldError::new(
                    origin.field("email"),
                    "is the address of an account linked to another player",
                ));
                continue;
            }
            (Some(u), _) if u.player_id.is_some() => (Some(u), AccountAction::Existing),
            (Some(u), Some(_)) => {
                errs.push(FieldError::new(
                    origin.field("email"),
                    "is the address of another account than the player's own",
                ));
                let _ = u;
                continue;
            }
            (Some(u), None) => (Some(u), AccountAction::Linked),
            (None, Some(u)) => (Some(u), AccountAction::Existing),
            (None, None) => (None, AccountAction::Created),
        };
        let waits = match &account {
            Some(u) => {
                u.active && u.password_hash == NO_PASSWORD && !invitation_pending(c, u.id, now)?
            }
            None => true,
        };
        steps.push(Step {
            row,
            player,
            player_action,
            account,
            account_action,
            invite: invite && waits,
        });
    }
    if !errs.is_empty() {
        return Err(ApiError::validation(errs));
    }
    Ok(steps)
}

/// Imports `rows` (in the caller's transaction): all of them or, with a bad row, none. With
/// `dry_run` nothing is written and the answer is the plan; with `invite` every account still
/// without a password and without a live invitation is invited.
pub fn import(
    c: &mut DbConn,
    settings: &MailSettings,
    rows: &[(Origin, MemberRow)],
    (dry_run, invite): (bool, bool),
    today: NaiveDate,
    now: NaiveDateTime,
) -> ApiResult<ImportReport> {
    if rows.is_empty() {
        return Err(ApiError::invalid("members", "must hold at least one row"));
    }
    let steps = plan(c, rows, invite, now)?;
    let mut report = ImportReport {
        dry_run,
        players_created: 0,
        players_updated: 0,
        accounts_created: 0,
        invited: 0,
        rows: Vec::with_capacity(steps.len()),
    };
    for step in steps {
        report.players_created += u32::from(step.player_action == PlayerAction::Created);
        report.players_updated += u32::from(step.player_action == PlayerAction::Updated);
        report.accounts_created += u32::from(step.account_action == AccountAction::Created);
        report.invited += u32::from(step.invite);
        let player_id = if dry_run {
            step.player.as_ref().map(|p| p.id)
        } else {
            Some(apply(c, settings, &step, today, now)?.0)
        };
        report.rows.push(ImportedRow {
            name: step.row.name.clone(),
            player_id,
            player: step.player_action,
            account: step.account_action,
            invited: step.invite,
        });
    }
    Ok(report)
}

/// Writes one row's plan: the player, the account, the rating, the language, the invitation.
fn apply(
    c: &mut DbConn,
    settings: &MailSettings,
    step: &Step,
    today: NaiveDate,
    now: NaiveDateTime,
) -> ApiResult<(PlayerId, Option<Invited>)> {
    let row = &step.row;
    let player = match (&step.player, step.player_action) {
        (None, _) => players::create(
            c,
            &NewPlayer {
                name: row.name.clone(),
                knsb_number: row.knsb.clone(),
                fide_id: None,
                membership: row.membership.into(),
                active: true,
                email: Some(row.email.clone()),
                phone: None,
                version: 1,
                created_at: now,
                updated_at: now,
            },
        )?,
        (Some(p), PlayerAction::Updated) => players::change(
            c,
            p.id,
            &crate::services::version::ExpectedVersion::any(),
            &PlayerChanges {
                name: (p.name != row.name).then(|| row.name.clone()),
                knsb_number: row
                    .knsb
                    .clone()
                    .filter(|_| p.knsb_number != row.knsb)
                    .map(Some),
                email: (p.email.as_deref() != Some(row.email.as_str()))
                    .then(|| Some(row.email.clone())),
                membership: (p.membership != row.membership)
                    .then(|| row.membership.as_str().to_string()),
                ..PlayerChanges::default()
            },
        )?,
        (Some(p), _) => p.clone(),
    };
    let account = match (&step.account, step.account_action) {
        (None, _) => crate::services::users::rows::insert(
            c,
            &NewUser {
                email: &row.email,
                password_hash: NO_PASSWORD,
                roles: "member",
                active: true,
                created_at: now,
                updated_at: now,
            },
        )?,
        (Some(u), _) => u.clone(),
    };
    if account.player_id != Some(player.id) {
        crate::services::users::update_user(
            c,
            account.id,
            None,
            crate::services::users::UserChanges {
                player_id: Some(Some(player.id)),
                ..Default::default()
            },
        )?;
    }
    if let (Some(k), Some(v)) = (&row.knsb, row.rating) {
        let latest = ratings::on_date(c, player.id, crate::vocab::RatingSource::Knsb, today)
            .ok()
            .map(|r| r.value);
        if latest != Some(v) {
            ratings::push(
                c,
                &ratings::RatingList {
                    source: crate::vocab::RatingSource::Knsb.to_string(),
                    list_date: today.to_string(),
                    ratings: vec![ratings::RatingRow {
                        knsb_number: Some(k.clone()),
                        fide_id: None,
                        value: i64::from(v),
                    }],
                },
            )?;
        }
    }
    if let Some(lang) = row.language
        && crate::services::preferences::language(c, player.id)?.as_deref() != Some(lang)
    {
        crate::services::preferences::set_language(c, player.id, lang, now)?;
    }
    let invited = if step.invite {
        Some(account_links::invite(c, settings, account.id, now)?)
    } else {
        None
    };
    Ok((player.id, invited))
}
