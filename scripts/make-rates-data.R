# Writes the small data sets of the rate tests (data/README.md, "Rates"), deterministically:
#   Rscript scripts/make-rates-data.R
# Needs Debian's r-cran-spdata (North Carolina SIDS and its neighbour lists), r-cran-epi (Danish lung cancer),
# r-cran-sf and r-cran-spdep (the Olinda tracts' neighbours), run from the repository's root.
suppressPackageStartupMessages({
    library(sf)
    library(spdep)
})
out <- "data/tests"

# North Carolina SIDS, 1974-78 and 1979-84, by county (spData's sids.shp), and its two neighbour lists.
sids <- st_drop_geometry(st_read(system.file("shapes/sids.shp", package = "spData"), quiet = TRUE))
sids <- sids[, c("FIPSNO", "NAME", "BIR74", "SID74", "BIR79", "SID79", "L_id", "M_id")]
write.csv(sids, file.path(out, "nc_sids.csv"), row.names = FALSE, quote = FALSE)
for (gal in c("ncCC89.gal", "ncCR85.gal"))
    file.copy(system.file("weights", gal, package = "spData"), file.path(out, paste0("nc_sids_", gal)),
              overwrite = TRUE)

# Danish male lung cancer by 5-year age band and period (Epi's lungDK): the two Lexis triangles of each
# age-period square summed.
data(lungDK, package = "Epi")
lung <- aggregate(cbind(cases = D, person_years = Y) ~ age + period,
                  data = transform(lungDK, age = A5, period = P5), FUN = sum)
lung <- lung[order(lung$period, lung$age), ]
lung$person_years <- sprintf("%.6f", lung$person_years)
write.csv(lung, file.path(out, "lung_dk.csv"), row.names = FALSE, quote = FALSE)

# Olinda's tracts: residents (V014) and the demo's patients in poor health (health = "no") per tract; queen
# neighbours of the tract polygons in the order of the CSV.
tracts <- st_read("data/demo/olinda.gpkg", layer = "tracts", quiet = TRUE)
tracts <- tracts[order(tracts$CD_GEOCODI), ]
patients <- read.csv("data/demo/olinda_patients.csv", colClasses = c(tract = "character"))
poor <- table(factor(patients$tract[patients$health == "no"], levels = tracts$CD_GEOCODI))
write.csv(data.frame(tract = tracts$CD_GEOCODI, residents = tracts$V014, poor_health = as.integer(poor)),
          file.path(out, "olinda_health.csv"), row.names = FALSE, quote = FALSE)
sf_use_s2(FALSE)
write.nb.gal(poly2nb(tracts, row.names = tracts$CD_GEOCODI, queen = TRUE),
             file.path(out, "olinda_tracts.gal"), oldstyle = FALSE, ind = "CD_GEOCODI")
