//! Writes each OpenAI encoding's tokens (from `bpe-openai`'s dictionaries)
//! as tables the tokenizer reads where they lie (`src/tokens/ranks.rs`):
//! no dictionary is built or deserialized when skillscope runs.
//!
//! For an encoding NAME, in `OUT_DIR`: `NAME.bytes` (every token's bytes,
//! by rank), `NAME.starts` (where each begins, and the end: little-endian
//! u32s) and `NAME.slots` (an open-addressing table of rank + 1 by
//! [`token_hash`], 0 for an empty slot, twice as many slots as tokens or
//! more: little-endian u32s).

include!("src/tokens/token_hash.rs");

fn main() {
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    for (name, encoding) in [("o200k_base", bpe_openai::o200k_base()), ("cl100k_base", bpe_openai::cl100k_base())] {
        let bpe = &encoding.bpe;
        let count = bpe.num_tokens();
        let (mut bytes, mut starts) = (Vec::new(), vec![0u32]);
        for rank in 0..count {
            bytes.extend_from_slice(bpe.token_bytes(rank as u32));
            starts.push(u32::try_from(bytes.len()).expect("an encoding's tokens fit in 4 GiB"));
        }
        let size = (count * 2).next_power_of_two();
        let mut slots = vec![0u32; size];
        for rank in 0..count {
            let mut slot = token_hash(bpe.token_bytes(rank as u32)) as usize & (size - 1);
            while slots[slot] != 0 {
                slot = (slot + 1) & (size - 1);
            }
            slots[slot] = rank as u32 + 1;
        }
        let le = |values: &[u32]| values.iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>();
        std::fs::write(out.join(format!("{name}.bytes")), &bytes).expect("OUT_DIR is writable");
        std::fs::write(out.join(format!("{name}.starts")), le(&starts)).expect("OUT_DIR is writable");
        std::fs::write(out.join(format!("{name}.slots")), le(&slots)).expect("OUT_DIR is writable");
    }
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=src/tokens/token_hash.rs");
}
