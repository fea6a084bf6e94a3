"""What a page shows (docs/architecture.md, the presenter floor): the context a feature's templates render, built
from the rows and the services' reads. The views of several features build on one presenter (the tracker's pages
and the table screen); a presenter imports no view, and no model or service imports a presenter."""
