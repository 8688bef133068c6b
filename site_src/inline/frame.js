/* frame.js — the lab inside a page of its own site: the iframe that `build.py export` writes into a
 * Material for MkDocs or Zensical page (DESIGN §4.11).
 *
 * Inline in <head>, after boot.js: the palette has to be right before the first paint. It does
 * nothing unless a page of the same origin frames the lab in an iframe marked `data-raglab`
 * (frameElement is null at the top level and under a foreign parent), and then two things:
 * - the frame's height follows the lab's, so the host's page scrolls and the frame never shows a
 *   scroll bar of its own. The host needs no script for it: same-origin, the lab sets its own
 *   iframe's height attribute.
 * - with `data-raglab-palette="host"` on the iframe (`--palette-sync`, the default), the lab takes
 *   the host's scheme: Material's and Zensical's `data-md-color-scheme` on the host's <body>
 *   ("slate" is their dark one), followed live as the reader toggles it. The lab reads nothing else
 *   of the host: no styles, no storage.
 */
(() => {
  "use strict";

  const frame = window.frameElement;
  if (!frame || !frame.hasAttribute("data-raglab")) return;
  const root = document.documentElement;

  // getBoundingClientRect, not scrollHeight: scrollHeight is never less than the frame's own
  // height, so a frame taller than the lab could never shrink back to it.
  const fit = () => {
    const height = String(Math.ceil(root.getBoundingClientRect().height));
    if (frame.getAttribute("height") !== height) frame.setAttribute("height", height);
  };
  const resized = new ResizeObserver(fit);
  resized.observe(root);

  let followed = null;
  if (frame.getAttribute("data-raglab-palette") === "host") {
    const host = frame.ownerDocument.body;
    const follow = () => {
      const scheme = host.getAttribute("data-md-color-scheme");
      if (scheme === null) {
        // Not a Material or Zensical page (or not yet styled): the system's preference, as anywhere.
        root.removeAttribute("data-host-scheme");
        root.removeAttribute("data-raglab-palette");
        return;
      }
      root.setAttribute("data-host-scheme", scheme);
      root.setAttribute("data-raglab-palette", scheme === "slate" ? "dark" : "light");
    };
    follow();
    followed = new MutationObserver(follow);
    followed.observe(host, { attributes: true, attributeFilter: ["data-md-color-scheme"] });
  }

  // Removed by the host's instant navigation, the frame's document unloads: the observer registered
  // on the host's <body> would otherwise keep this whole window alive for as long as the host lives.
  // (Kept into the back-forward cache, the two pages are kept together: the observers stay.)
  addEventListener("pagehide", (event) => {
    if (event.persisted) return;
    resized.disconnect();
    if (followed) followed.disconnect();
  });
})();
