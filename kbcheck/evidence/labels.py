"""Words that say where the text around them comes from: a source heading, a source line, an author-date citation."""

from __future__ import annotations

import re

from kbcheck.model.particulars import HEADING as PARTICULARS_HEADING
from kbcheck.model.particulars import HEADING_LEAD
from kbcheck.regex import lazy

#: a heading that names where the text around it comes from (`#### 来源`, `## Sources:`), or
#: gives the note's work its particulars (`## Meta Info`, `## 论文信息`,
#: `## 基本信息`: its links are the work's, `model.particulars`)
SOURCE_LABEL = lazy(
    rf"^{HEADING_LEAD}(?:来源|出处|sources?(?![A-Za-z])|{PARTICULARS_HEADING})",
    re.IGNORECASE,
)
#: a paragraph or list item that opens by naming its source (`参考资料：[…](…)`, `Source: …`, `主要来源：`)
SOURCE_LINE = lazy(r"^[\s*_\-]*(?:主要|原始|main\s|original\s|primary\s)?(?:来源|出处|参考资料|参考文献|参考链接|参考|sources?|references?|via)\s*[:：]",
                         re.IGNORECASE)

_NAME = r"[A-Z][A-Za-z'’-]*[a-z]"
#: a month or a season before a year is a date: `(March, 2024)`
_NO_DATE = r"(?!(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec|Spring|Summer|Autumn|Fall|Winter)[a-z]*,)"
#: an author-date citation, as academic prose cites a work: `(Hinton et al., 2012)`, `Srivastava et al.
#: (2014)`, `Emer and Clark (1984)`, `(Liu, 2019)`, `Hinton 等人（2012）`; `et al.` names a work's authors alone
AUTHOR_DATE = lazy(
    rf"\b{_NAME}\s+et\s+al\b"
    rf"|\b{_NAME}\s+(?:and|&)\s+{_NAME}\s*(?:,\s*|\(\s*)(?:19|20)\d{{2}}[a-z]?\b"
    rf"|\({_NO_DATE}{_NAME}(?:\s+(?:and|&)\s+{_NAME})?,\s*(?:19|20)\d{{2}}[a-z]?\)"
    rf"|\b{_NAME}\s?等人?\s?[（(](?:19|20)\d{{2}}[a-z]?[)）]"
)
#: the verb that reports what named authors found (past tense in English: `Encoder and Decoder
#: show …` describes, it reports nobody's finding)
_REPORTS = r"(?:(?:found|showed|reported|measured|observed|demonstrated)(?![A-Za-z])|发现|表明|指出|报告|测得|证明)"
#: named authors reporting their finding, in prose (`named-authors`): `Emer and Clark 发现 20% …`,
#: `Ren 等人表明 …`; it backs the paragraph or list item it stands in, not the section around it
NAMED_AUTHORS = lazy(rf"\b{_NAME}\s+(?:and|&)\s+{_NAME}\s*{_REPORTS}|\b{_NAME}\s?等人\s?{_REPORTS}")
