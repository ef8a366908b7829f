"""Links as the knowledge base's renderer reads them: where a link's target is, whether it is
there, what it was probably meant to be, and which targets are kept out of git on purpose."""
