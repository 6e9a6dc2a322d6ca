/// FNV-1a of a token's bytes: where the build script places it in its
/// table and where the tokenizer looks for it (`ranks.rs`).
pub const fn token_hash(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut i = 0;
    while i < bytes.len() {
        hash ^= bytes[i] as u64;
        hash = hash.wrapping_mul(0x0100_0000_01b3);
        i += 1;
    }
    hash
}
