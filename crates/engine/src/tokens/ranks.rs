//! One encoding's byte-pair merges, counted as tiktoken encodes a piece:
//! the adjacent pair of parts whose joined bytes have the lowest rank is
//! merged first (the leftmost of equal ranks), until no joined pair is a
//! token. The tokens are the tables `build.rs` writes, read where they lie
//! in the binary: nothing is built when the first piece is counted.

include!("token_hash.rs");

/// The longest piece counted whole. A longer one (a run of one letter, a
/// blob with no space, megabytes long) is counted in parts of this length:
/// its merges take memory and time by its length (a 20 MB piece took 10 s
/// and 1.3 GB), and in parts they take little. A merge across a part's end
/// is missed, so such a piece may count a token more or less than
/// tiktoken for each part (the tests hold it to that).
pub const LONG_PIECE: usize = 1 << 16;

/// An encoding's tokens by rank, and a table to find a token's rank.
pub struct Ranks {
    /// Every token's bytes, by rank.
    bytes: &'static [u8],
    /// Where each token begins in `bytes`, and the end (u32 LE).
    starts: &'static [u8],
    /// Rank + 1 by [`token_hash`], 0 where empty (u32 LE), a power of two.
    slots: &'static [u8],
}

pub static O200K_BASE: Ranks = Ranks {
    bytes: include_bytes!(concat!(env!("OUT_DIR"), "/o200k_base.bytes")),
    starts: include_bytes!(concat!(env!("OUT_DIR"), "/o200k_base.starts")),
    slots: include_bytes!(concat!(env!("OUT_DIR"), "/o200k_base.slots")),
};

pub static CL100K_BASE: Ranks = Ranks {
    bytes: include_bytes!(concat!(env!("OUT_DIR"), "/cl100k_base.bytes")),
    starts: include_bytes!(concat!(env!("OUT_DIR"), "/cl100k_base.starts")),
    slots: include_bytes!(concat!(env!("OUT_DIR"), "/cl100k_base.slots")),
};

fn u32_at(table: &[u8], index: usize) -> u32 {
    let at = index * 4;
    u32::from_le_bytes([table[at], table[at + 1], table[at + 2], table[at + 3]])
}

impl Ranks {
    fn token(&self, rank: u32) -> &'static [u8] {
        let rank = rank as usize;
        &self.bytes[u32_at(self.starts, rank) as usize..u32_at(self.starts, rank + 1) as usize]
    }

    /// The rank of the token `bytes` are, if they are one.
    pub fn rank(&self, bytes: &[u8]) -> Option<u32> {
        let mask = self.slots.len() / 4 - 1;
        let mut slot = token_hash(bytes) as usize & mask;
        loop {
            match u32_at(self.slots, slot) {
                0 => return None,
                found if self.token(found - 1) == bytes => return Some(found - 1),
                _ => slot = (slot + 1) & mask,
            }
        }
    }

    /// How many tokens tiktoken encodes `piece` (one pre-tokenized piece) in;
    /// a piece longer than [`LONG_PIECE`] in parts of that length.
    pub fn count(&self, piece: &[u8]) -> usize {
        match piece.len() {
            0 | 1 => piece.len(),
            _ if self.rank(piece).is_some() => 1,
            n if n > LONG_PIECE => {
                // A run (of one letter, of a pattern) repeats its parts.
                let (mut total, mut last): (usize, Option<(&[u8], usize)>) = (0, None);
                for part in piece.chunks(LONG_PIECE) {
                    let counted = match last {
                        Some((seen, counted)) if seen == part => counted,
                        _ => self.count(part),
                    };
                    last = Some((part, counted));
                    total += counted;
                }
                total
            }
            _ => self.count_by_merging(piece),
        }
    }

    fn pair_rank(&self, piece: &[u8], start: usize, end: usize) -> u32 {
        self.rank(&piece[start..end]).unwrap_or(u32::MAX)
    }

    /// tiktoken's `_byte_pair_merge`, its candidate pairs in a heap by
    /// (rank, start): the lowest rank first, the leftmost of equal ones, in
    /// O(n log n) however long the piece (tiktoken rescans every pair after
    /// each merge; the two count alike, and as fast on the pieces of a home).
    fn count_by_merging(&self, piece: &[u8]) -> usize {
        use std::cmp::Reverse;
        let n = piece.len();
        // Parts by their start; `next[i]` is where the part at `i` ends.
        let mut next: Vec<usize> = (1..=n).collect();
        let mut prev: Vec<usize> = (0..n).map(|i| i.wrapping_sub(1)).collect();
        let mut alive = vec![true; n];
        // A pair's entry is current while its start's stamp is unchanged.
        let mut stamp = vec![0u32; n];
        let mut heap = std::collections::BinaryHeap::new();
        for i in 0..n - 1 {
            let rank = self.pair_rank(piece, i, i + 2);
            if rank != u32::MAX {
                heap.push(Reverse((rank, i, 0u32)));
            }
        }
        let mut parts = n;
        while let Some(Reverse((_, i, at))) = heap.pop() {
            if !alive[i] || stamp[i] != at {
                continue;
            }
            // Join the part at `i` with the next one.
            let gone = next[i];
            alive[gone] = false;
            next[i] = next[gone];
            if next[i] < n {
                prev[next[i]] = i;
            }
            parts -= 1;
            for start in [Some(i), Some(prev[i]).filter(|&p| p < n)].into_iter().flatten() {
                stamp[start] += 1;
                let end = next[start];
                if end < n {
                    let rank = self.pair_rank(piece, start, next[end]);
                    if rank != u32::MAX {
                        heap.push(Reverse((rank, start, stamp[start])));
                    }
                }
            }
        }
        parts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every token is found at its rank, in both tables.
    #[test]
    fn each_token_has_its_rank() {
        for (ranks, bpe) in
            [(&O200K_BASE, &bpe_openai::o200k_base().bpe), (&CL100K_BASE, &bpe_openai::cl100k_base().bpe)]
        {
            for rank in (0..bpe.num_tokens() as u32).step_by(7) {
                assert_eq!(ranks.rank(bpe.token_bytes(rank)), Some(rank));
            }
            assert_eq!(ranks.rank(b"\xff\xfe not a token at all \xff"), None);
        }
    }

    /// The merges count as `bpe-openai` does, on pieces of every length up
    /// to 96 bytes.
    #[test]
    fn merges_count_as_bpe_openai() {
        let words = "internationalization supercalifragilistic ﷺ日本語のテキスト aaaaaaaaaaaa 0123456789 \
                     ____----==== //\\\\ e\u{301}tat naïve";
        let bytes = words.as_bytes();
        for (ranks, bpe) in
            [(&O200K_BASE, &bpe_openai::o200k_base().bpe), (&CL100K_BASE, &bpe_openai::cl100k_base().bpe)]
        {
            for start in 0..bytes.len() {
                for len in 2..(bytes.len() - start).min(96) {
                    let piece = &bytes[start..start + len];
                    assert_eq!(ranks.count_by_merging(piece), bpe.count(piece), "{piece:?}");
                }
            }
        }
    }

    /// A long piece (a blob of letters, a run of spaces) is counted in
    /// about linear time, as `bpe-openai` counts it: exactly up to
    /// [`LONG_PIECE`], and beyond within a token per part.
    #[test]
    fn long_pieces_count_quickly() {
        let blob: String = (0..LONG_PIECE).map(|i| (b'a' + (i * 7 % 26) as u8) as char).collect();
        let spaces = " ".repeat(LONG_PIECE);
        for piece in [blob.as_bytes(), spaces.as_bytes()] {
            let started = std::time::Instant::now();
            let ours = O200K_BASE.count(piece);
            assert!(started.elapsed() < std::time::Duration::from_secs(5));
            assert_eq!(ours, bpe_openai::o200k_base().bpe.count(piece));
        }
        let run = "a".repeat(20 << 20);
        let mixed: String = (0..(4 << 20)).map(|i| (b'a' + (i * 7 % 26) as u8) as char).collect();
        for piece in [run.as_bytes(), mixed.as_bytes()] {
            // Ours is timed, not the reference's count beside it.
            let started = std::time::Instant::now();
            let ours = O200K_BASE.count(piece);
            assert!(started.elapsed() < std::time::Duration::from_secs(10), "{:?}", started.elapsed());
            let exact = bpe_openai::o200k_base().bpe.count(piece);
            let parts = piece.len().div_ceil(LONG_PIECE);
            assert!(ours.abs_diff(exact) <= parts, "{ours} against {exact}, {parts} parts");
        }
    }
}
