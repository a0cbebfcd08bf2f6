# Runs NYSDOH's Geographic Aggregation Tool (gatpkg) on a layer as its dialogs would with the given settings:
# one aggregation variable with a minimum and no maximum, no boundary, no exclusions, merges with the closest
# adjacent area by geographic centroid (GAT's defaults otherwise: adjacent = TRUE, minfirst = FALSE). Writes
# the crosswalk (area id, region) and prints the seconds the aggregation took.
# Usage: Rscript gat-run.R GPKG LAYER ID_FIELD POPULATION_FIELD FLOOR CROSSWALK_CSV
args <- commandArgs(trailingOnly = TRUE)
suppressPackageStartupMessages({
  library(sf)
  library(gatpkg)
})
area <- sf::st_read(args[1], layer = args[2], quiet = TRUE)
area[[args[3]]] <- as.character(area[[args[3]]])
# GAT reads shapefiles, whose geometry column sf names "geometry"; a GeoPackage's is "geom".
names(area)[names(area) == attr(area, "sf_column")] <- "geometry"
sf::st_geometry(area) <- "geometry"
floor <- as.numeric(args[5])
total <- sum(area[[args[4]]], na.rm = TRUE)
gatvars <- list(myidvar = args[3], aggregator1 = args[4], minvalue1 = floor, maxvalue1 = total,
                aggregator2 = args[4], minvalue2 = floor, maxvalue2 = total,
                boundary = "NONE", rigidbound = FALSE, popwt = FALSE, popvar = args[4])
mergevars <- list(mergeopt1 = "closest", similar1 = "NONE", similar2 = "NONE", centroid = "geographic")
start <- Sys.time()
aggvars <- defineGATmerge(area = area, gatvars = gatvars, mergevars = mergevars, exclist = NULL,
                          pwrepeat = FALSE, adjacent = TRUE, minfirst = FALSE, progressbar = FALSE)
aggregated <- mergeGATareas(ratevars = list(ratename = "no_rate"), aggvars = aggvars, idvar = "GATid",
                            myshp = area)
seconds <- as.numeric(difftime(Sys.time(), start, units = "secs"))
write.csv(data.frame(area_id = area[[args[3]]], region = aggvars$IDlist), args[6], row.names = FALSE)
cat(sprintf("%.2f\n", seconds))
