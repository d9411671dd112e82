//! A member's own choices for the club's mails: the language, and each kind of notification on
//! or off. A choice not made is the club's default.

use crate::error::ApiResult;
use crate::ids::PlayerId;
use crate::store::DbConn;
use crate::store::schema::member_preferences as mp;
use chrono::NaiveDateTime;
use diesel::prelude::*;

/// The language of `player`'s mails, when they chose one.
pub fn language(c: &mut DbConn, player: PlayerId) -> ApiResult<Option<String>> {
    Ok(mp::table
        .find(player)
        .select(mp::language)
        .first::<Option<String>>(c)
        .optional()?
        .flatten())
}

/// Sets the language of `player`'s mails (`nl` or `en`, checked by the caller); a row is made
/// when they had none.
pub fn set_language(
    c: &mut DbConn,
    player: PlayerId,
    lang: &str,
    now: NaiveDateTime,
) -> ApiResult<()> {
    let changed = diesel::update(mp::table.find(player))
        .set((mp::language.eq(lang), mp::updated_at.eq(now)))
        .execute(c)?;
    if changed == 0 {
        diesel::insert_into(mp::table)
            .values((
                mp::player_id.eq(player),
                mp::language.eq(lang),
                mp::updated_at.eq(now),
            ))
            .execute(c)?;
    }
    Ok(())
}

/// Forgets `player`'s mail preferences (an erased member: [`crate::services::erasure`]).
pub fn forget(c: &mut DbConn, player: PlayerId) -> ApiResult<()> {
    diesel::delete(mp::table.find(player)).execute(c)?;
    Ok(())
}
