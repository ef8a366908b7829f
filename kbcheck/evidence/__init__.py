"""What counts as a source, decided once for every rule, the digest and `suggest`.

- a citation and the ids that name the same work: `model/ids.same_work` (an arXiv
  id, its DOI `10.48550/arXiv.NNNN` and its abs/pdf/html URL are one id), applied
  where refs are resolved (`KnowledgeBase.resolve`), so every consumer sees one id;
- numbered markers (`[3]`, `[2, 4]`, `[1-3]`) and the entries they name: `markers`;
- source labels (`来源`, `Source`, `参考：`): `labels`;
- what a page names as its one work, at its head: `head`;
- where a living document mentions each id: `mentions`;
- whether and how it discusses an entry of its reference list (its body cites or
  names it, the page is named for the work, or drawn from it alone): `discussed`,
  read by KB002 and the digest's status alike;
- where a claim number's source is, and whether it backs the number: `numbers`.

This package reads the model (`kbcheck.model`); the model never imports it.
"""
