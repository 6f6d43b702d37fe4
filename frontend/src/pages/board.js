// The board kit: draws any game's view from its layout, outside a table page, with the same
// renderer, move controller and result panel the table uses. For tools that show positions (the docs'
// pictures) and for the browser tests; it starts nothing by itself.

export { cardName, cardSVG, richText } from "../cards.js";
export { renderMap } from "../map.js";
export { MoveController } from "../moves.js";
export { Board, Registry, renderRegion, renderTable } from "../render.js";
export { resultPanel } from "../result.js";
