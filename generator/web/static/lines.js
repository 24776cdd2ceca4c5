// Miro's and Arp's lines are printed as two rules with a white channel drawn over them (docs/
// svg.md): a colour shown on such a line goes on a copy of it over the channel, as a pencil
// goes down the channel on paper. Shared by the recorder and the check page.
"use strict";

window.colourOverChannel = function (shape, colour) {
  const svg = shape.ownerSVGElement;
  const channel = svg && svg.querySelector(".channel");
  if (!channel) return false;
  const copy = shape.cloneNode(false);
  copy.removeAttribute("id");
  copy.setAttribute("class", "drawn");
  copy.setAttribute("stroke-dasharray", "none");
  copy.style.stroke = colour;
  copy.style.strokeWidth = channel.getAttribute("stroke-width") || "1";
  svg.append(copy);
  return true;
};
