//! Standard Webhooks signing (<https://www.standardwebhooks.com/>): a secret is `whsec_`
//! followed by the base64 of 24 to 64 random bytes; a delivery's `webhook-signature` is
//! `v1,` and the base64 of the HMAC-SHA256, keyed with the decoded secret, of
//! `"{webhook-id}.{webhook-timestamp}.{body}"`.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

/// The prefix of a secret.
pub const PREFIX: &str = "whsec_";
/// The fewest bytes a secret decodes to.
pub const MIN_KEY_BYTES: usize = 24;
/// The most bytes a secret decodes to.
pub const MAX_KEY_BYTES: usize = 64;
/// The bytes of a secret the server generates.
const GENERATED_BYTES: usize = 32;

/// A new random secret, `whsec_<base64 of 32 bytes>`.
pub fn generate() -> Result<String, String> {
    let mut bytes = [0u8; GENERATED_BYTES];
    getrandom::fill(&mut bytes).map_err(|e| format!("no randomness for a webhook secret: {e}"))?;
    Ok(format!("{PREFIX}{}", STANDARD.encode(bytes)))
}

/// The key of a secret: `whsec_` and the base64 of 24 to 64 bytes; else why not.
pub fn key(secret: &str) -> Result<Vec<u8>, String> {
    let b64 = secret
        .strip_prefix(PREFIX)
        .ok_or_else(|| format!("must start with {PREFIX}"))?;
    let key = STANDARD
        .decode(b64)
        .map_err(|_| format!("must be {PREFIX} followed by base64 (standard alphabet, padded)"))?;
    if !(MIN_KEY_BYTES..=MAX_KEY_BYTES).contains(&key.len()) {
        return Err(format!(
            "must decode to {MIN_KEY_BYTES} to {MAX_KEY_BYTES} bytes (it decodes to {})",
            key.len()
        ));
    }
    Ok(key)
}

/// The `webhook-signature` of a delivery: `v1,<base64 HMAC-SHA256>`.
#[allow(clippy::expect_used, reason = "HMAC accepts a key of any length")]
pub fn sign(key: &[u8], id: &str, timestamp: i64, body: &[u8]) -> String {
    // HMAC takes a key of any length
    let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(key).expect("any key length");
    mac.update(id.as_bytes());
    mac.update(b".");
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(body);
    format!("v1,{}", STANDARD.encode(mac.finalize().into_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The test vector the Standard Webhooks reference libraries check themselves against.
    #[test]
    fn the_published_test_vector_is_reproduced() {
        let k = key("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw").unwrap();
        assert_eq!(
            sign(
                &k,
                "msg_p5jXN8AQM9LWM0D4loKWxJek",
                1614265330,
                br#"{"test": 2432232314}"#
            ),
            "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
        );
    }

    #[test]
    fn secrets_are_whsec_and_24_to_64_bytes() {
        let s = generate().unwrap();
        assert!(s.starts_with("whsec_"));
        assert_eq!(key(&s).unwrap().len(), 32);
        assert_ne!(generate().unwrap(), s, "random");
        assert!(
            key("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw").is_err(),
            "no prefix"
        );
        assert!(key("whsec_not base64!").is_err());
        // 18 bytes: too short
        assert!(key("whsec_AAAAAAAAAAAAAAAAAAAAAAAA").is_err());
        assert!(key(&format!("whsec_{}", STANDARD.encode([7u8; 65]))).is_err());
        assert_eq!(
            key(&format!("whsec_{}", STANDARD.encode([7u8; 64])))
                .unwrap()
                .len(),
            64
        );
    }
}
