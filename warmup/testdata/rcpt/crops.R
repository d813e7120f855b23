# Computes R changepoint's CROPS answers for jitsim's CROPS goldens.
#   Rscript crops.R series.tsv.gz crops.tsv
# For each series with the default penalty (empty third field):
# cpt.meanvar(x, method="PELT", penalty="CROPS", pen.value=c(4*log(n), 1e5*log(n)))
# as Traini et al. call it. Writes id, pen.value.full (hexadecimal floats)
# and the changepoint count of each row of cpts.full, space-separated, in
# three tab-separated fields.
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
  if (nchar(f[3]) != 0) next
  x <- as.numeric(strsplit(f[4], " ", fixed = TRUE)[[1]])
  n <- length(x)
  invisible(capture.output(c <- cpt.meanvar(x, method = "PELT", penalty = "CROPS",
                                            pen.value = c(4 * log(n), 1e5 * log(n)))))
  full <- cpts.full(c)
  m <- apply(full, 1, function(r) sum(!is.na(r) & r > 0))
  pens <- pen.value.full(c)
  writeLines(paste0(f[1], "\t", paste(sprintf("%a", pens), collapse = " "), "\t",
                    paste(m, collapse = " ")), out)
}
close(out)
