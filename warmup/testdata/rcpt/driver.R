# Computes R changepoint's answers for jitsim's PELT goldens.
#   Rscript driver.R series.tsv.gz answers.tsv
# For each series: cpt.meanvar(x, method="PELT", penalty="Manual",
# pen.value=15*log(n), minseglen=2), the call warmup_stats makes, or the
# line's own minseglen and penalty when given. Writes one line per series:
# id, then the changepoints (1-based ends of all segments but the last),
# space-separated; the header records R's and the package's versions.
suppressPackageStartupMessages(library(changepoint))
args <- commandArgs(trailingOnly = TRUE)
con <- gzfile(args[1])
lines <- readLines(con)
close(con)
lines <- lines[!startsWith(lines, "#")]
out <- file(args[2], "w")
writeLines(sprintf("# %s; changepoint %s", R.version.string, packageVersion("changepoint")), out)
for (line in lines) {
  f <- strsplit(line, "\t", fixed = TRUE)[[1]]
  x <- as.numeric(strsplit(f[4], " ", fixed = TRUE)[[1]])
  n <- length(x)
  minseglen <- as.integer(f[2])
  pen <- if (nchar(f[3]) == 0) 15 * log(n) else as.numeric(f[3])
  cpts <- cpts(cpt.meanvar(x, method = "PELT", penalty = "Manual", pen.value = pen,
                           minseglen = minseglen))
  writeLines(paste0(f[1], "\t", paste(cpts, collapse = " ")), out)
}
close(out)
