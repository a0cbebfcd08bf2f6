# Checks a crosswalk of small areas to regions against the polygons, with nothing of VBAS or GAT: prints the
# regions, those below the floor, those not contiguous (their areas not connected through shared boundary
# lines, spdep::poly2nb with queen = FALSE as GAT uses; areas flagged in the crosswalk's `flag` column, if it
# has one, left out) and the small areas missing from the crosswalk, tab-separated.
# Usage: Rscript floor-check.R GPKG LAYER ID_FIELD POPULATION_FIELD FLOOR CROSSWALK_CSV [ID_COLUMN REGION_COLUMN]
args <- commandArgs(trailingOnly = TRUE)
suppressPackageStartupMessages({
  library(sf)
  library(spdep)
})
sf::sf_use_s2(FALSE)
area <- sf::st_read(args[1], layer = args[2], quiet = TRUE)
ids <- as.character(area[[args[3]]])
population <- area[[args[4]]]
floor <- as.numeric(args[5])
crosswalk <- read.csv(args[6], colClasses = "character")
idColumn <- if (length(args) >= 7) args[7] else "area_id"
regionColumn <- if (length(args) >= 8) args[8] else "region"
region <- crosswalk[[regionColumn]][match(ids, crosswalk[[idColumn]])]
flagged <- if ("flag" %in% names(crosswalk)) crosswalk$flag[match(ids, crosswalk[[idColumn]])] != "0" else
  rep(FALSE, length(ids))
flagged[is.na(flagged)] <- FALSE
missing <- sum(is.na(region))
nb <- suppressWarnings(spdep::poly2nb(area, queen = FALSE))
sums <- tapply(population, region, sum)
below <- sum(sums < floor)
disconnected <- 0
for (r in unique(region[!is.na(region)])) {
  members <- which(region == r & !flagged)
  if (length(members) <= 1) next
  reached <- members[1]
  frontier <- members[1]
  while (length(frontier) > 0) {
    nxt <- setdiff(intersect(unlist(nb[frontier]), members), reached)
    reached <- c(reached, nxt)
    frontier <- nxt
  }
  if (length(reached) != length(members)) disconnected <- disconnected + 1
}
cat(sprintf("%d\t%d\t%d\t%d\n", length(sums), below, disconnected, missing))
