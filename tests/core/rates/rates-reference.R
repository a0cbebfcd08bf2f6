# R's own figures for the rate tests (tests/core/rates/RatesAgainstRTest.cpp), from the same files the engine reads:
#   Rscript rates-reference.R DATA_DIR STANDARD_POPULATION_DIR OUTPUT.csv
# Writes one line per figure value: data set, figure, row (1-based), value to 17 significant digits. Every figure
# comes from the field's reference functions: base R's poisson.test and qgamma, epitools::ageadjust.direct,
# spdep::EBest and spdep::EBlocal; sums and ratios are plain R.
suppressPackageStartupMessages({
    library(epitools)
    library(spdep)
})
args <- commandArgs(trailingOnly = TRUE)
data <- args[1]
standards <- args[2]
lines <- character()
emit <- function(set, figure, values) {
    lines <<- c(lines, sprintf("%s,%s,%d,%.17g", set, figure, seq_along(values), values))
}
perHundredThousand <- 1e5
confidence <- 0.95

# poisson.test's exact interval of cases / exposure. The interval does not depend on the rate under the null
# hypothesis, r; its p-value does, and with r = 1 over a large exposure it sums the Poisson density over millions
# of counts: r near the estimate keeps that short.
exact <- function(cases, exposure) {
    sapply(seq_along(cases), function(i)
        poisson.test(cases[i], exposure[i], r = (cases[i] + 1) / exposure[i], conf.level = confidence)$conf.int)
}

# Crude rate with poisson.test's exact interval, and the SIR against the expected cases with its interval.
crude <- function(set, cases, population) {
    emit(set, "crude_rate", cases / population * perHundredThousand)
    ci <- exact(cases, population)
    emit(set, "crude_lower", ci[1, ] * perHundredThousand)
    emit(set, "crude_upper", ci[2, ] * perHundredThousand)
}
ratio <- function(set, cases, expected) {
    emit(set, "expected", expected)
    emit(set, "sir", cases / expected)
    ci <- exact(cases, expected)
    emit(set, "sir_lower", ci[1, ])
    emit(set, "sir_upper", ci[2, ])
}
adjusted <- function(set, figure, cases, population, standard) {
    # cases, population: strata x regions
    fig <- sapply(seq_len(ncol(cases)), function(j)
        ageadjust.direct(cases[, j], population[, j], stdpop = standard, conf.level = confidence))
    emit(set, paste0(figure, "_rate"), fig["adj.rate", ] * perHundredThousand)
    emit(set, paste0(figure, "_lower"), fig["lci", ] * perHundredThousand)
    emit(set, paste0(figure, "_upper"), fig["uci", ] * perHundredThousand)
}
smoothed <- function(set, cases, population, nb) {
    global <- EBest(cases, population)
    emit(set, "global_eb", global$estmm * perHundredThousand)
    emit(set, "global_prior", unlist(attr(global, "parameters")[c("b", "a")]))
    emit(set, "local_eb", EBlocal(cases, population, nb, zero.policy = TRUE)$est * perHundredThousand)
    emit(set, "local_eb_geoda", EBlocal(cases, population, nb, zero.policy = TRUE, geoda = TRUE)$est *
         perHundredThousand)
}

# North Carolina SIDS 1974-78 by county: births at risk, the ncCC89 and ncCR85 neighbour lists.
sids <- read.csv(file.path(data, "nc_sids.csv"))
cc89 <- read.gal(file.path(data, "nc_sids_ncCC89.gal"), region.id = sids$FIPSNO)
cr85 <- read.gal(file.path(data, "nc_sids_ncCR85.gal"), region.id = sids$FIPSNO)
crude("nc", sids$SID74, sids$BIR74)
adjusted("nc", "one_stratum", matrix(sids$SID74, nrow = 1), matrix(sids$BIR74, nrow = 1), 1)
ratio("nc", sids$SID74, sids$BIR74 * sum(sids$SID74) / sum(sids$BIR74))
smoothed("nc", sids$SID74, sids$BIR74, cc89)
emit("nc_cr85", "local_eb", EBlocal(sids$SID74, sids$BIR74, cr85)$est * perHundredThousand)

# The same counties merged into Cressie and Chan's four regions (M_id); two regions border where two of their
# counties do in ncCR85.
regionCases <- as.vector(tapply(sids$SID74, sids$M_id, sum))
regionBirths <- as.vector(tapply(sids$BIR74, sids$M_id, sum))
regions <- sort(unique(sids$M_id))
touching <- lapply(regions, function(r) {
    members <- which(sids$M_id == r)
    sort(setdiff(unique(sids$M_id[unlist(cr85[members])]), r))
})
regionNb <- structure(lapply(touching, function(t) as.integer(match(t, regions))), class = "nb",
                      region.id = as.character(regions))
crude("nc_regions", regionCases, regionBirths)
ratio("nc_regions", regionCases, regionBirths * sum(regionCases) / sum(regionBirths))
smoothed("nc_regions", regionCases, regionBirths, regionNb)

# Danish male lung cancer by age (40-44 .. 85+) and period: periods as regions, ages as strata, each period
# bordering the periods before and after it.
lung <- read.csv(file.path(data, "lung_dk.csv"))
periods <- sort(unique(lung$period))
ages <- sort(unique(lung$age))
cases <- matrix(lung$cases[order(lung$period, lung$age)], nrow = length(ages))
years <- matrix(lung$person_years[order(lung$period, lung$age)], nrow = length(ages))
crude("lung", colSums(cases), colSums(years))
for (id in c("us2000", "who2000_2025", "esp2013")) {
    standard <- read.csv(file.path(standards, paste0(id, ".csv")))
    # the standard's groups from 40 on, in 5-year bands, the last band everyone from 85 on
    band <- pmin(standard$age_from %/% 5 * 5, 85)
    weights <- as.vector(tapply(standard$population[band >= 40], band[band >= 40], sum))
    adjusted("lung", id, cases, years, weights)
}
referenceRates <- rowSums(cases) / rowSums(years)
ratio("lung", colSums(cases), colSums(years * referenceRates))
chain <- structure(lapply(seq_along(periods), function(i) as.integer(setdiff(c(i - 1, i + 1), c(0, length(periods) + 1)))),
                   class = "nb", region.id = as.character(periods))
smoothed("lung", colSums(cases), colSums(years), chain)

# Olinda's 470 tracts: residents and the demo's patients in poor health, queen neighbours.
olinda <- read.csv(file.path(data, "olinda_health.csv"), colClasses = c(tract = "character"))
olindaNb <- read.gal(file.path(data, "olinda_tracts.gal"))
crude("olinda", olinda$poor_health, olinda$residents)
ratio("olinda", olinda$poor_health, olinda$residents * sum(olinda$poor_health) / sum(olinda$residents))
smoothed("olinda", olinda$poor_health, olinda$residents, olindaNb)

# qgamma over shapes and probabilities from the tails to the middle.
grid <- expand.grid(p = c(1e-10, 1e-3, 0.025, 0.5, 0.975, 0.999, 1 - 1e-10),
                    shape = c(0.01, 0.1, 0.5, 1, 2, 3.7, 10, 33.3, 100, 667, 1e4, 1e5, 1e6))
emit("gamma", "shape", grid$shape)
emit("gamma", "probability", grid$p)
emit("gamma", "quantile", qgamma(grid$p, grid$shape))

writeLines(lines, args[3])
