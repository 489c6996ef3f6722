// The page's plot questions about a ULog (docs/architecture.md, "Plots and the timeline"): a
// topic's export columns, and its numeric columns over time through the export (export.h) with
// the timestamp in ns first. The timeline is queries.cpp's.
#pragma once
