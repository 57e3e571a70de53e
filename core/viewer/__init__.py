"""A static HTML viewer of one user's memory: wiki pages, the forest, belief timelines.

Pure: records in, a dict of relative file path → text out (`render_site`). Reading the
store lives in `storage/site.py`, writing files in `jobs/export_html.py`.
"""

from arborwiki.core.viewer.inputs import SiteInputs
from arborwiki.core.viewer.options import ViewerOptions
from arborwiki.core.viewer.site import render_site

__all__ = ["SiteInputs", "ViewerOptions", "render_site"]
