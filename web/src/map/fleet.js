// The vessels layer: the fleet's latest positions from GET
// /v1/vessels/positions, paged through with the API's cursor, drawn as
// canvas circle markers coloured by ship type category or by risk tier.
import L from 'leaflet';
import { getJSON } from '../common/api.js';

/** Colours of the ship type categories (null: unknown type). */
export const TYPE_COLOURS = {
  cargo: '#1f77b4', tanker: '#d62728', passenger: '#9467bd', high_speed: '#17becf', fishing: '#2ca02c',
  tug: '#8c564b', special: '#e377c2', pleasure: '#bcbd22', wing_in_ground: '#7f7f7f', other: '#ff7f0e',
  null: '#495057',
};

/** Colours of the risk tiers (null: not scored). */
export const TIER_COLOURS = {
  critical: '#c92a2a', high: '#f76707', medium: '#f2c200', low: '#2f9e44', null: '#868e96',
};

/** The colour of a vessel item for the colouring ('type' or 'tier'). */
export function colourOf(item, by) {
  return by === 'tier' ? TIER_COLOURS[item.risk_tier] : TYPE_COLOURS[item.category] || TYPE_COLOURS.null;
}

/**
 * Loads the vessels the filters ({type, tier, port}) select, page after
 * page (500 a page, or the plan's results per call). When the first page
 * has no coordinates (a plan without exact coordinates), it stops there:
 * nothing could be placed, and the first page already tells the total.
 * onPage(loaded, total) reports progress.
 */
export async function loadFleet(filters, { signal, onPage } = {}) {
  const items = [];
  let total = 0;
  let cursor = '';
  for (;;) {
    const q = new URLSearchParams({ limit: '500' });
    for (const k of ['type', 'tier', 'port']) if (filters[k]) q.set(k, filters[k]);
    if (cursor) q.set('cursor', cursor);
    const page = await getJSON('/vessels/positions?' + q, { signal });
    items.push(...page.positions);
    total = page.total;
    if (onPage) onPage(items.length, total);
    const exact = items.length === 0 || items[0].latitude !== null;
    if (!exact) return { items, total, exact: false };
    if (!page.pagination.has_more) return { items, total, exact: true };
    cursor = page.pagination.next_cursor;
  }
}

/** The vessel markers on the map, by IMO. */
export class FleetLayer {
  constructor(map, onClick) {
    this.map = map;
    this.onClick = onClick;
    this.group = L.layerGroup().addTo(map);
    this.markers = new Map(); // IMO -> circle marker (its item in .item)
    this.by = 'type';
  }

  /** Replaces the markers with the items that have coordinates. */
  draw(items) {
    this.group.clearLayers();
    this.markers.clear();
    for (const item of items) {
      if (item.latitude === null || item.longitude === null) continue;
      const m = L.circleMarker([item.latitude, item.longitude], {
        radius: 4, weight: 1, color: '#1b2733', opacity: 0.6, fillOpacity: 0.9, fillColor: colourOf(item, this.by),
      });
      m.item = item;
      m.on('click', () => this.onClick(item));
      this.group.addLayer(m);
      this.markers.set(item.imo_number, m);
    }
  }

  /** Colours the markers by 'type' or 'tier'. */
  colourBy(by) {
    this.by = by;
    for (const m of this.markers.values()) m.setStyle({ fillColor: colourOf(m.item, by) });
  }

  /** Draws the markers above the other interactive layers. */
  toFront() {
    for (const m of this.markers.values()) m.bringToFront();
  }

  get count() {
    return this.markers.size;
  }
}
