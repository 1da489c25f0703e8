"""The camera view and flag pictures a rig sends: the latest annotated frame (memory only, for the live page)
and a picture per flagged event (stored with the round)."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request, Response, status

from dashboard.deps import HubDep, RigDep, SeqPath, TableDep

router = APIRouter(prefix="/api/tables", tags=["camera"])

MAX_FRAME = 2_000_000  # bytes of JPEG
MAX_THUMB = 500_000
JPEG = {"content": {"image/jpeg": {"schema": {"type": "string", "format": "binary"}}}, "description": "a JPEG"}


async def _jpeg(request: Request, limit: int) -> bytes:
    data = await request.body()
    if len(data) > limit:
        raise HTTPException(
            status.HTTP_413_REQUEST_ENTITY_TOO_LARGE, f"the picture is {len(data)} bytes; at most {limit}"
        )
    if not data.startswith(b"\xff\xd8"):
        raise HTTPException(status.HTTP_415_UNSUPPORTED_MEDIA_TYPE, "the body must be a JPEG image")
    return data


@router.put("/{table_id}/frame", status_code=status.HTTP_204_NO_CONTENT, openapi_extra={"requestBody": JPEG})
async def put_frame(table: TableDep, hub: HubDep, _: RigDep, request: Request) -> Response:
    """The rig's latest camera frame with its overlays (JPEG)."""
    hub.put_frame(table.id, await _jpeg(request, MAX_FRAME))
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get("/{table_id}/frame.jpg", responses={200: JPEG, 404: {"description": "no camera frame yet"}})
def get_frame(table: TableDep) -> Response:
    if table.frame is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"table {table.id!r} has no camera frame yet")
    return Response(table.frame, media_type="image/jpeg", headers={"Cache-Control": "no-store"})


@router.put(
    "/{table_id}/flags/{seq}/thumb", status_code=status.HTTP_204_NO_CONTENT, openapi_extra={"requestBody": JPEG}
)
async def put_thumb(table: TableDep, hub: HubDep, _: RigDep, seq: SeqPath, request: Request) -> Response:
    """The picture of the place flagged event ``seq`` concerns (JPEG)."""
    if seq < 0:
        raise HTTPException(status.HTTP_422_UNPROCESSABLE_ENTITY, "seq must be 0 or more")
    data = await _jpeg(request, MAX_THUMB)
    if hub.store.event(table.round_id, seq) is None:  # the rig sends pictures alongside its outbox: retry later
        raise HTTPException(status.HTTP_409_CONFLICT, f"event {seq} is not stored in this round yet")
    hub.put_thumb(table.id, seq, data)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get("/{table_id}/flags/{seq}/thumb.jpg", responses={200: JPEG, 404: {"description": "no picture"}})
def get_thumb(table: TableDep, hub: HubDep, seq: SeqPath) -> Response:
    data = hub.store.thumb(table.round_id, seq)
    if data is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"no picture of event {seq} in this round")
    return Response(data, media_type="image/jpeg", headers={"Cache-Control": "max-age=3600"})
