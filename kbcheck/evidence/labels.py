"""Words that say where the text around them comes from: a source heading or a source line."""

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
