//! The blossom steps of the weighted matching: labels, shrinking and expanding blossoms,
//! augmenting along a path, and the primal-dual stages of a solve.

use super::*;

impl<W: MatchWeight> Matching<W> {
    pub(super) fn leaves(&self, b: usize, out: &mut Vec<usize>) {
        if b < self.n {
            out.push(b);
        } else {
            for &t in &self.blossomchilds[b] {
                self.leaves(t, out);
            }
        }
    }

    pub(super) fn leaves_of(&self, b: usize) -> Vec<usize> {
        let mut v = Vec::new();
        self.leaves(b, &mut v);
        v
    }

    pub(super) fn assign_label(&mut self, w: usize, t: u8, p: isize) {
        let b = self.inblossom[w];
        self.label[w] = t;
        self.label[b] = t;
        self.labelend[w] = p;
        self.labelend[b] = p;
        self.bestedge[w] = NONE;
        self.bestedge[b] = NONE;
        if t == 1 {
            let l = self.leaves_of(b);
            self.queue.extend(l);
        } else if t == 2 {
            let base = self.blossombase[b] as usize;
            let m = self.mate[base];
            self.assign_label(self.endpoint(m as usize), 1, m ^ 1);
        }
    }

    pub(super) fn scan_blossom(&mut self, mut v: isize, mut w: isize) -> isize {
        let mut path = Vec::new();
        let mut base = NONE;
        while v != NONE || w != NONE {
            let mut b = self.inblossom[v as usize];
            if self.label[b] & 4 != 0 {
                base = self.blossombase[b];
                break;
            }
            path.push(b);
            self.label[b] = 5;
            if self.labelend[b] == NONE {
                v = NONE;
            } else {
                v = self.endpoint(self.labelend[b] as usize) as isize;
                b = self.inblossom[v as usize];
                v = self.endpoint(self.labelend[b] as usize) as isize;
            }
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = 1;
        }
        base
    }

    pub(super) fn add_blossom(&mut self, base: usize, k: usize) {
        let (mut v, mut w) = self.edge_ends(k);
        let bb = self.inblossom[base];
        let mut bv = self.inblossom[v];
        let mut bw = self.inblossom[w];
        let Some(b) = self.unusedblossoms.pop() else {
            return;
        };
        self.blossombase[b] = base as isize;
        self.blossomparent[b] = NONE;
        self.blossomparent[bb] = b as isize;
        let mut path = Vec::new();
        let mut endps = Vec::new();
        while bv != bb {
            self.blossomparent[bv] = b as isize;
            path.push(bv);
            endps.push(self.labelend[bv] as usize);
            v = self.endpoint(self.labelend[bv] as usize);
            bv = self.inblossom[v];
        }
        path.push(bb);
        path.reverse();
        endps.reverse();
        endps.push(2 * k);
        while bw != bb {
            self.blossomparent[bw] = b as isize;
            path.push(bw);
            endps.push((self.labelend[bw] ^ 1) as usize);
            w = self.endpoint(self.labelend[bw] as usize);
            bw = self.inblossom[w];
        }
        self.blossomchilds[b] = path.clone();
        for &p in &endps {
            self.structural[p / 2] = true;
        }
        self.blossomendps[b] = endps;
        self.label[b] = 1;
        self.labelend[b] = self.labelend[bb];
        self.dualvar[b] = W::zero();
        for v in self.leaves_of(b) {
            if self.label[self.inblossom[v]] == 2 {
                self.queue.push(v);
            }
            self.inblossom[v] = b;
        }
        let mut bestedgeto = vec![NONE; 2 * self.n];
        let mut bestslackto = vec![W::zero(); 2 * self.n];
        for &bv in &path {
            let nblists: Vec<Vec<usize>> = match self.blossombestedges[bv].take() {
                Some(l) => vec![l],
                None => self
                    .leaves_of(bv)
                    .into_iter()
                    .map(|v| {
                        self.neighbend[v]
                            .iter()
                            .map(|&p| p as usize / 2)
                            .filter(|&k| self.weight[k] != W::zero())
                            .collect()
                    })
                    .collect(),
            };
            for nblist in nblists {
                for k in nblist {
                    let (mut i, mut j) = self.edge_ends(k);
                    if self.inblossom[j] == b {
                        std::mem::swap(&mut i, &mut j);
                    }
                    let _ = i;
                    let bj = self.inblossom[j];
                    if bj != b && self.label[bj] == 1 {
                        let ks = self.slack(k);
                        if bestedgeto[bj] == NONE || ks < bestslackto[bj] {
                            bestedgeto[bj] = k as isize;
                            bestslackto[bj] = ks;
                        }
                    }
                }
            }
            self.bestedge[bv] = NONE;
        }
        let list: Vec<usize> = bestedgeto
            .into_iter()
            .filter(|&k| k != NONE)
            .map(|k| k as usize)
            .collect();
        self.bestedge[b] = NONE;
        for &k in &list {
            let ks = self.slack(k);
            if self.bestedge[b] == NONE || ks < self.bestslack[b] {
                self.bestedge[b] = k as isize;
                self.bestslack[b] = ks;
            }
        }
        self.blossombestedges[b] = Some(list);
    }

    pub(super) fn child_at(&self, b: usize, j: isize) -> usize {
        let len = self.blossomchilds[b].len() as isize;
        self.blossomchilds[b][j.rem_euclid(len) as usize]
    }

    pub(super) fn endp_at(&self, b: usize, j: isize) -> usize {
        let len = self.blossomendps[b].len() as isize;
        self.blossomendps[b][j.rem_euclid(len) as usize]
    }

    pub(super) fn expand_blossom(&mut self, b: usize, endstage: bool) {
        let childs = self.blossomchilds[b].clone();
        for &s in &childs {
            self.blossomparent[s] = NONE;
            if s < self.n {
                self.inblossom[s] = s;
            } else if endstage && self.dualvar[s] == W::zero() {
                self.expand_blossom(s, endstage);
            } else {
                for v in self.leaves_of(s) {
                    self.inblossom[v] = s;
                }
            }
        }
        if !endstage && self.label[b] == 2 {
            let entrychild = self.inblossom[self.endpoint((self.labelend[b] ^ 1) as usize)];
            let len = childs.len() as isize;
            let mut j = childs.iter().position(|&c| c == entrychild).unwrap_or(0) as isize;
            let (jstep, endptrick): (isize, isize) = if j & 1 != 0 {
                j -= len;
                (1, 0)
            } else {
                (-1, 1)
            };
            let mut p = self.labelend[b];
            while j != 0 {
                let ep = self.endpoint((p ^ 1) as usize);
                self.label[ep] = 0;
                let e = self.endp_at(b, j - endptrick) as isize ^ endptrick ^ 1;
                let ee = self.endpoint(e as usize);
                self.label[ee] = 0;
                self.assign_label(self.endpoint((p ^ 1) as usize), 2, p);
                let e = self.endp_at(b, j - endptrick) / 2;
                self.allow(e);
                j += jstep;
                p = self.endp_at(b, j - endptrick) as isize ^ endptrick;
                self.allow((p / 2) as usize);
                j += jstep;
            }
            let bv = self.child_at(b, j);
            let ep = self.endpoint((p ^ 1) as usize);
            self.label[ep] = 2;
            self.label[bv] = 2;
            self.labelend[ep] = p;
            self.labelend[bv] = p;
            self.bestedge[bv] = NONE;
            j += jstep;
            while self.child_at(b, j) != entrychild {
                let bv = self.child_at(b, j);
                if self.label[bv] == 1 {
                    j += jstep;
                    continue;
                }
                let mut found = None;
                for v in self.leaves_of(bv) {
                    if self.label[v] != 0 {
                        found = Some(v);
                        break;
                    }
                }
                if let Some(v) = found {
                    self.label[v] = 0;
                    let m = self.mate[self.blossombase[bv] as usize];
                    let em = self.endpoint(m as usize);
                    self.label[em] = 0;
                    self.assign_label(v, 2, self.labelend[v]);
                }
                j += jstep;
            }
            let _ = len;
        }
        self.label[b] = 0;
        self.labelend[b] = NONE;
        self.blossomchilds[b].clear();
        for p in std::mem::take(&mut self.blossomendps[b]) {
            self.structural[p / 2] = false;
        }
        self.blossombase[b] = NONE;
        self.blossombestedges[b] = None;
        self.bestedge[b] = NONE;
        self.unusedblossoms.push(b);
    }

    pub(super) fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.blossomparent[t] != b as isize {
            t = self.blossomparent[t] as usize;
        }
        if t >= self.n {
            self.augment_blossom(t, v);
        }
        let len = self.blossomchilds[b].len() as isize;
        let i = self.blossomchilds[b]
            .iter()
            .position(|&c| c == t)
            .unwrap_or(0) as isize;
        let mut j = i;
        let (jstep, endptrick): (isize, isize) = if i & 1 != 0 {
            j -= len;
            (1, 0)
        } else {
            (-1, 1)
        };
        while j != 0 {
            j += jstep;
            let t = self.child_at(b, j);
            let p = self.endp_at(b, j - endptrick) as isize ^ endptrick;
            if t >= self.n {
                self.augment_blossom(t, self.endpoint(p as usize));
            }
            j += jstep;
            let t = self.child_at(b, j);
            if t >= self.n {
                self.augment_blossom(t, self.endpoint((p ^ 1) as usize));
            }
            let (ea, eb) = (self.endpoint(p as usize), self.endpoint((p ^ 1) as usize));
            self.mate[ea] = p ^ 1;
            self.mate[eb] = p;
        }
        let i = i as usize;
        self.blossomchilds[b].rotate_left(i);
        self.blossomendps[b].rotate_left(i);
        self.blossombase[b] = self.blossombase[self.blossomchilds[b][0]];
    }

    pub(super) fn augment_matching(&mut self, k: usize) {
        let (v, w) = self.edge_ends(k);
        self.augment_from(v, 2 * k as isize + 1);
        self.augment_from(w, 2 * k as isize);
    }

    /// Matches `s` to endpoint `p` (or leaves it exposed for `p == NONE`) and flips the
    /// alternating path from `s` to the root of its tree.
    pub(super) fn augment_from(&mut self, mut s: usize, mut p: isize) {
        loop {
            let bs = self.inblossom[s];
            if bs >= self.n {
                self.augment_blossom(bs, s);
            }
            self.mate[s] = p;
            if self.labelend[bs] == NONE {
                break;
            }
            let t = self.endpoint(self.labelend[bs] as usize);
            let bt = self.inblossom[t];
            s = self.endpoint(self.labelend[bt] as usize);
            let j = self.endpoint((self.labelend[bt] ^ 1) as usize);
            if bt >= self.n {
                self.augment_blossom(bt, j);
            }
            self.mate[j] = self.labelend[bt];
            p = self.labelend[bt] ^ 1;
        }
    }

    pub(super) fn run(&mut self) {
        let n = self.n;
        // Whether the duals changed since the last search of the tight edges.
        let mut fresh = true;
        loop {
            if fresh {
                self.augment_tight();
                fresh = false;
            }
            // A new stage.
            self.label.iter_mut().for_each(|l| *l = 0);
            self.labelend.iter_mut().for_each(|l| *l = NONE);
            self.bestedge.iter_mut().for_each(|e| *e = NONE);
            for b in n..2 * n {
                self.blossombestedges[b] = None;
            }
            for k in std::mem::take(&mut self.allowed) {
                self.allowedge[k / 64] &= !(1 << (k % 64));
            }
            self.queue.clear();
            self.deferred.clear();
            self.defer = true;
            let mut parity = None;
            for v in 0..n {
                if self.mate[v] == NONE
                    && self.dualvar[v] > W::zero()
                    && self.label[self.inblossom[v]] == 0
                {
                    let odd = self.dualvar[v].is_odd();
                    if *parity.get_or_insert(odd) == odd {
                        self.assign_label(v, 1, NONE);
                    }
                }
            }
            if parity.is_none() {
                break;
            }
            loop {
                if self.scan() {
                    break;
                }
                // Dual adjustment.
                let mut deltatype = 0;
                let mut delta = W::zero();
                let mut deltavertex = 0usize;
                let mut deltaedge = 0usize;
                let mut deltablossom = 0usize;
                // Type 1: an S-vertex's dual reaches zero (exposed ones first on ties, so that
                // a solve from scratch ends as the plain algorithm does).
                for v in 0..n {
                    if self.label[self.inblossom[v]] != 1 {
                        continue;
                    }
                    let d = self.dualvar[v];
                    if deltatype == 0
                        || d < delta
                        || (d == delta && self.mate[v] == NONE && self.mate[deltavertex] != NONE)
                    {
                        delta = d;
                        deltatype = 1;
                        deltavertex = v;
                    }
                }
                for v in 0..n {
                    if self.label[self.inblossom[v]] == 0 && self.bestedge[v] != NONE {
                        let d = self.bestslack[v];
                        if d < delta {
                            delta = d;
                            deltatype = 2;
                            deltaedge = self.bestedge[v] as usize;
                        }
                    }
                }
                for b in 0..2 * n {
                    if self.blossomparent[b] == NONE
                        && self.label[b] == 1
                        && self.bestedge[b] != NONE
                    {
                        let d = self.bestslack[b].half();
                        if d < delta {
                            delta = d;
                            deltatype = 3;
                            deltaedge = self.bestedge[b] as usize;
                        }
                    }
                }
                for b in n..2 * n {
                    if self.blossombase[b] >= 0
                        && self.blossomparent[b] == NONE
                        && self.label[b] == 2
                        && self.dualvar[b] < delta
                    {
                        delta = self.dualvar[b];
                        deltatype = 4;
                        deltablossom = b;
                    }
                }
                for v in 0..n {
                    match self.label[self.inblossom[v]] {
                        1 => self.dualvar[v] = self.dualvar[v] - delta,
                        2 => self.dualvar[v] = self.dualvar[v] + delta,
                        _ => {}
                    }
                }
                for b in n..2 * n {
                    if self.blossombase[b] >= 0 && self.blossomparent[b] == NONE {
                        match self.label[b] {
                            1 => self.dualvar[b] = self.dualvar[b] + delta,
                            2 => self.dualvar[b] = self.dualvar[b] - delta,
                            _ => {}
                        }
                    }
                }
                if delta != W::zero() {
                    for b in 0..2 * n {
                        if self.bestedge[b] != NONE {
                            self.bestslack[b] = self.slack(self.bestedge[b] as usize);
                        }
                    }
                }
                if delta != W::zero() {
                    self.fruitless.iter_mut().for_each(|f| *f = false);
                    fresh = true;
                }
                match deltatype {
                    1 => {
                        // An S-vertex's dual reached zero: it becomes the exposed one.
                        self.augment_from(deltavertex, NONE);
                        break;
                    }
                    2 | 3 => {
                        self.allow(deltaedge);
                        let (mut i, j) = self.edge_ends(deltaedge);
                        if self.label[self.inblossom[i]] == 0 {
                            i = j;
                        }
                        self.queue.push(i);
                    }
                    _ => self.expand_blossom(deltablossom, false),
                }
            }
            for b in n..2 * n {
                if self.blossomparent[b] == NONE
                    && self.blossombase[b] >= 0
                    && self.label[b] == 1
                    && self.dualvar[b] == W::zero()
                {
                    self.expand_blossom(b, true);
                }
            }
        }
    }

    /// Grows the forest along tight edges; true when it augmented the matching.
    ///
    /// A root that is a single vertex without any tight edge cannot take part in an
    /// augmentation until the duals change: its scan (which only records its least-slack
    /// edges for the dual adjustment) is deferred until the forest cannot grow otherwise, so
    /// the many stages of a solve from scratch that end in an augmentation found elsewhere
    /// skip it.
    pub(super) fn scan(&mut self) -> bool {
        loop {
            let Some(v) = self.queue.pop() else {
                if self.deferred.is_empty() {
                    return false;
                }
                self.queue.append(&mut self.deferred);
                self.defer = false;
                continue;
            };
            let root = self.mate[v] == NONE && self.inblossom[v] == v;
            if self.defer && root && self.fruitless[v] {
                self.deferred.push(v);
                continue;
            }
            let mut tight = false;
            let dv = self.dualvar[v];
            for idx in 0..self.neighbend[v].len() {
                let w = self.nbr[v][idx] as usize;
                if self.inblossom[v] == self.inblossom[w] {
                    continue;
                }
                let wt = self.nbw[v][idx];
                if wt == W::zero() {
                    continue;
                }
                let p = self.neighbend[v][idx] as usize;
                let k = p / 2;
                let mut kslack = W::zero();
                if !self.allowed_edge(k) {
                    kslack = dv + self.dualvar[w] - wt.double();
                    if kslack == W::zero() {
                        self.allow(k);
                    }
                }
                let bw = self.inblossom[w];
                if self.allowed_edge(k) {
                    tight = true;
                    if self.label[bw] == 0 {
                        if self.mate[self.blossombase[bw] as usize] == NONE {
                            // An exposed vertex outside the forest: augment.
                            self.augment_matching(k);
                            return true;
                        }
                        self.assign_label(w, 2, (p ^ 1) as isize);
                    } else if self.label[bw] == 1 {
                        let base = self.scan_blossom(v as isize, w as isize);
                        if base >= 0 {
                            self.add_blossom(base as usize, k);
                        } else {
                            self.augment_matching(k);
                            return true;
                        }
                    } else if self.label[w] == 0 {
                        self.label[w] = 2;
                        self.labelend[w] = (p ^ 1) as isize;
                    }
                } else if self.label[bw] == 1 {
                    let b = self.inblossom[v];
                    if self.bestedge[b] == NONE || kslack < self.bestslack[b] {
                        self.bestedge[b] = k as isize;
                        self.bestslack[b] = kslack;
                    }
                } else if self.label[w] == 0
                    && (self.bestedge[w] == NONE || kslack < self.bestslack[w])
                {
                    self.bestedge[w] = k as isize;
                    self.bestslack[w] = kslack;
                }
            }
            if root && !tight {
                self.fruitless[v] = true;
            }
        }
    }
}
