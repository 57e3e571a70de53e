"""Viewer settings: how much goes on one page, and the forest drawing's geometry."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class ViewerConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    forest_page_nodes: int = Field(
        80,
        ge=1,
        description="snapshots per forest page (one time window): keeps each SVG small for "
        "users with thousands of snapshots",
    )
    node_spacing_px: int = Field(22, ge=8, description="horizontal distance between snapshots")
    lane_height_px: int = Field(22, ge=8, description="vertical distance between trajectories")
    lane_label_px: int = Field(190, ge=0, description="width of the trajectory titles column")
    date_label_px: int = Field(
        72, ge=0, description="minimum distance between two date labels on the time axis"
    )
    label_chars: int = Field(26, ge=4, description="trajectory title characters in the SVG")
    search_claim_chars: int = Field(
        200, ge=20, description="claim text characters kept in the inline search index"
    )
    search_results: int = Field(60, ge=1, description="search hits shown at most")
    ui_cache_users: int = Field(
        4, ge=1, description="rendered user sites the HTTP /ui route keeps in memory"
    )
