//! One-click unsubscribe links of notification mails
//! ([decision 0325](../../../../docs/decisions/0325-notification-preferences-and-unsubscribe.md)):
//! a token `<player id>.<kind>.<mac>`, the mac the first 16 bytes of
//! `HMAC-SHA256(key, "<player id>:<kind>")` in unpadded base64url, the key derived from the
//! server's secret. A token does not expire: it can only turn one kind of mail off for one
//! player, which the player can turn on again.

use crate::error::{ApiResult, FieldError};
use crate::ids::PlayerId;
use crate::services::mail::templates::Language;
use crate::services::preferences;
use crate::store::DbConn;
use crate::store::models::players;
use crate::vocab::NotifyKind;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chrono::NaiveDateTime;

/// The longest token a request may send.
pub const TOKEN_MAX: usize = 64;
/// The bytes of the mac a token carries.
const MAC_BYTES: usize = 16;

/// The key the unsubscribe tokens are signed with.
#[derive(Clone)]
pub struct UnsubscribeKey([u8; 32]);

impl std::fmt::Debug for UnsubscribeKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("UnsubscribeKey(..)")
    }
}

use crate::services::secrets::hmac_sha256 as hmac;

impl UnsubscribeKey {
    /// The unsubscribe key of a server secret (the JWT secret): a key of its own, so a token
    /// never reveals anything signed with the secret itself.
    pub fn from_secret(secret: &[u8]) -> UnsubscribeKey {
        UnsubscribeKey(hmac(secret, b"clubcomp unsubscribe link v1"))
    }

    fn mac(&self, player: PlayerId, kind: NotifyKind) -> String {
        let mac = hmac(
            &self.0,
            format!("{}:{}", player.0, kind.as_str()).as_bytes(),
        );
        URL_SAFE_NO_PAD.encode(&mac[..MAC_BYTES])
    }

    /// The token that turns mails of `kind` off for `player`.
    pub fn token(&self, player: PlayerId, kind: NotifyKind) -> String {
        format!("{}.{}.{}", player.0, kind.as_str(), self.mac(player, kind))
    }

    /// The link of `player`'s mails of `kind`, under the public address `public_url`.
    pub fn url(&self, public_url: &str, player: PlayerId, kind: NotifyKind) -> String {
        format!(
            "{public_url}/api/v1/notifications/unsubscribe?token={}",
            self.token(player, kind)
        )
    }

    /// The player and kind of a token this key signed; 422 naming `token` for any other text.
    pub fn verify(&self, token: &str) -> Result<(PlayerId, NotifyKind), FieldError> {
        let bad = || FieldError::new("token", "is not an unsubscribe link of this club");
        if token.len() > TOKEN_MAX {
            return Err(FieldError::new(
                "token",
                format!("must be at most {TOKEN_MAX} characters"),
            ));
        }
        let mut parts = token.split('.');
        let (Some(id), Some(kind), Some(mac), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(bad());
        };
        let id: i64 = id.parse().map_err(|_| bad())?;
        let kind: NotifyKind = kind.parse().map_err(|_| bad())?;
        let player = PlayerId(id);
        let expected = self.mac(player, kind);
        // compared in constant time: the mac is a secret until it is right
        let same = expected.len() == mac.len()
            && expected
                .bytes()
                .zip(mac.bytes())
                .fold(0u8, |acc, (a, b)| acc | (a ^ b))
                == 0;
        if same { Ok((player, kind)) } else { Err(bad()) }
    }
}

/// Turns off the kind of mail `token` names for its player, in the caller's transaction;
/// the kind. A player erased since the mail went out gets no mail anyway: nothing is written.
pub fn unsubscribe(
    c: &mut DbConn,
    key: &UnsubscribeKey,
    token: &str,
    now: NaiveDateTime,
) -> ApiResult<NotifyKind> {
    let (player, kind) = key
        .verify(token)
        .map_err(|e| crate::error::ApiError::validation(vec![e]))?;
    if players::by_id(c, player)?.is_some() {
        preferences::turn_off(c, player, kind, now)?;
    }
    Ok(kind)
}

/// The kind a token turns off and its player's language, changing nothing: what the page the
/// link of a mail's body opens asks to confirm (422 naming `token` for a token this key did
/// not sign).
pub fn describe(
    c: &mut DbConn,
    key: &UnsubscribeKey,
    token: &str,
) -> ApiResult<(NotifyKind, Language)> {
    let (player, kind) = key
        .verify(token)
        .map_err(|e| crate::error::ApiError::validation(vec![e]))?;
    let lang = Language::parse(preferences::language(c, player)?.as_deref());
    Ok((kind, lang))
}

/// [`unsubscribe`] for the page's button, with the language of its player.
pub fn unsubscribe_in_language(
    c: &mut DbConn,
    key: &UnsubscribeKey,
    token: &str,
    now: NaiveDateTime,
) -> ApiResult<(NotifyKind, Language)> {
    let described = describe(c, key, token)?;
    unsubscribe(c, key, token, now)?;
    Ok(described)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The token computed outside the program (Python's hmac module): key =
    /// HMAC-SHA256("secret", "clubcomp unsubscribe link v1"), then the first 16 bytes of
    /// HMAC-SHA256(key, "42:pairing") in unpadded base64url.
    #[test]
    fn a_token_names_player_and_kind_and_only_this_key_signs_it() {
        let key = UnsubscribeKey::from_secret(b"secret");
        let t = key.token(PlayerId(42), NotifyKind::Pairing);
        assert_eq!(t, "42.pairing.UF9jdwdiluQ94rsggbFjjg");
        assert_eq!(key.verify(&t).unwrap(), (PlayerId(42), NotifyKind::Pairing));
        assert!(UnsubscribeKey::from_secret(b"other").verify(&t).is_err());
        // another player or kind with the same mac is refused
        let mac = t.rsplit('.').next().unwrap();
        assert!(key.verify(&format!("43.pairing.{mac}")).is_err());
        assert!(key.verify(&format!("42.result.{mac}")).is_err());
        assert!(key.verify("42.pairing").is_err());
        assert!(key.verify(&format!("{t}.x")).is_err());
        assert!(key.verify(&"a".repeat(65)).is_err());
    }

    #[test]
    fn the_link_is_under_the_public_address() {
        let key = UnsubscribeKey::from_secret(b"secret");
        let u = key.url("https://toren.example", PlayerId(7), NotifyKind::Pairing);
        assert_eq!(
            u,
            format!(
                "https://toren.example/api/v1/notifications/unsubscribe?token={}",
                key.token(PlayerId(7), NotifyKind::Pairing)
            )
        );
    }
}
