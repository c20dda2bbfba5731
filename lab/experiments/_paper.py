"""Published numbers, copied from the papers in ``shared/papers`` (never computed).

Keys are our method names; ``None`` marks a cell the paper leaves empty ("N/A").
"""

from __future__ import annotations

from types import MappingProxyType

__all__ = [
    "MMC_TABLES",
    "MSPC_TABLE2",
    "MSPC_TABLE2_UNMATCHED",
    "MSPC_TABLE3",
    "PEARSON_R",
]

# MSPC paper (Huang et al., Maximin Separation Probability Clustering, AAAI 2015), Table 2:
# clustering
# error (%). Column map: KM -> kmeans, Iter-SVR -> itersvr, MVC -> mvc-soft, LDA-KM ->
# lda-kmeans, Dis-KM -> dis-kmeans, MSPC-* -> mspc-*.
_T2_COLUMNS = (
    "kmeans",
    "itersvr",
    "lg-mmc",
    "mvc-soft",
    "lda-kmeans",
    "dis-kmeans",
    "mspc-mpm",
    "mspc-gep",
    "mspc-eig",
)
_T2_ROWS = {
    "ionosphere": (28.77, 22.51, 24.70, 15.67, 28.77, 17.95, 28.77, 29.63, 29.63),
    "breast": (3.81, 3.22, 3.51, 2.93, 3.81, 3.81, 2.93, 2.63, 2.78),
    "australian": (14.49, 14.06, 14.06, 17.25, 14.49, 14.49, 14.49, 14.06, 16.67),
    "diabetes": (33.07, 30.86, 32.68, 29.63, 32.94, 28.26, 32.55, 31.51, 31.77),
    "letter": (6.30, 5.53, 0.00, 5.66, 5.53, 5.59, 5.59, 5.53, 8.75),
    "satellite": (4.25, 6.17, 0.76, 0.85, 4.07, 4.20, 0.63, 3.80, 1.70),
    "spam": (20.04, 20.98, 18.30, None, 20.07, 19.17, 13.76, 17.19, 21.75),
    "mnist3vs8": (20.04, 20.06, 18.12, None, 18.78, 18.78, 17.85, 18.54, 23.19),
    "mnist1vs7": (4.23, 4.23, 2.30, None, 2.52, 1.54, 0.93, 1.10, 3.70),
    "mnist8vs9": (7.34, 40.16, 7.19, None, 5.12, 4.43, 4.25, 4.67, 18.50),
}
MSPC_TABLE2 = MappingProxyType(
    {task: dict(zip(_T2_COLUMNS, row, strict=True)) for task, row in _T2_ROWS.items()}
)

#: Paper columns with no method of ours (LG-MMC, Li et al. 2009, is not implemented).
MSPC_TABLE2_UNMATCHED = ("lg-mmc",)

# MSPC paper, Table 3: wall-clock seconds (MATLAB, Intel i7 quad core 3.39 GHz, 16 GB).
_T3_COLUMNS = (
    "itersvr",
    "lg-mmc",
    "mvc-soft",
    "lda-kmeans",
    "dis-kmeans",
    "mspc-mpm",
    "mspc-gep",
    "mspc-eig",
)
_T3_ROWS = {
    "letter": (50.2, 45.7, 178, 0.07, 0.38, 0.02, 0.23, 0.45),
    "satellite": (9.16, 140, 603, 0.10, 1.05, 0.02, 0.27, 0.95),
    "spam": (42.6, 1769, None, 0.52, 5.01, 0.09, 0.10, 5.63),
    "mnist3vs8": (6372, 1824, None, 5.53, 96.8, 2.82, 2.72, 9.25),
    "mnist1vs7": (3602, 2602, None, 3.01, 184, 1.65, 1.54, 16.6),
    "mnist8vs9": (3504, 2990, None, 4.01, 109, 2.40, 1.83, 9.88),
}
MSPC_TABLE3 = MappingProxyType(
    {task: dict(zip(_T3_COLUMNS, row, strict=True)) for task, row in _T3_ROWS.items()}
)

#: MSPC paper, Figs. 2-3: Pearson r between MSP and accuracy of MSPC-MPM per group. The
#: paper's groups are its 10 Table 2 tasks (7 UCI + 3 MNIST), the 21 Satellite pairs and the
#: 45 USPS pairs; ours are the 7 UCI tasks, the satimage pairs and the 45 sklearn digits
#: pairs.
PEARSON_R = MappingProxyType({"uci": 0.72, "satimage": 0.86, "digits": 0.81})

# MMC multivariate-loss paper (Zhao, Kwok & Zhang, Maximum Margin Clustering with
# Multivariate Loss Function), Tables III (NMI), IV (Rand) and
# V (F-measure, beta 1.5). Columns KM, NC, MMC_uni, MMC_multi -> kmeans, spectral,
# mmc-uni, mmc-multi. Task names mapped to ours: digitsAvB -> digits:AvB,
# letterAvB -> letter, satellite -> satellite (first two classes); ringnorm and the two
# 20-newsgroups tasks are not bundled.
_MMC_COLUMNS = ("kmeans", "spectral", "mmc-uni", "mmc-multi")
_MMC_TASKS = (
    "digits:1v7",
    "digits:2v7",
    "digits:3v8",
    "digits:8v9",
    "ionosphere",
    "ringnorm",
    "letter",
    "satellite",
    "text-1",
    "text-2",
)
_MMC_RAW = {
    "nmi": (
        (0.975, 0.008, 1.00, 1.00),
        (0.801, 0.075, 1.00, 1.00),
        (0.714, 0.069, 0.816, 0.861),
        (0.562, 0.002, 0.845, 0.860),
        (0.072, 0.164, 0.122, 0.197),
        (0.199, 0.220, 0.207, 0.422),
        (0.323, 0.219, 0.695, 0.703),
        (0.771, 0.765, 0.894, 0.923),
        (0.021, 0.722, 0.761, 0.830),
        (0.018, 0.653, 0.808, 0.900),
    ),
    "rand": (
        (0.995, 0.504, 1.00, 1.00),
        (0.940, 0.550, 1.00, 1.00),
        (0.904, 0.545, 0.945, 0.961),
        (0.835, 0.500, 0.956, 0.962),
        (0.564, 0.626, 0.599, 0.640),
        (0.635, 0.653, 0.642, 0.676),
        (0.706, 0.644, 0.873, 0.895),
        (0.922, 0.919, 0.971, 0.982),
        (0.499, 0.884, 0.905, 0.939),
        (0.500, 0.842, 0.929, 0.969),
    ),
    "f_measure": (
        (0.994, 0.503, 1.00, 1.00),
        (0.940, 0.549, 1.00, 1.00),
        (0.904, 0.544, 0.945, 0.961),
        (0.835, 0.498, 0.956, 0.962),
        (0.594, 0.652, 0.627, 0.672),
        (0.689, 0.685, 0.688, 0.724),
        (0.706, 0.644, 0.897, 0.900),
        (0.944, 0.942, 0.978, 0.986),
        (0.761, 0.887, 0.907, 0.940),
        (0.762, 0.849, 0.931, 0.970),
    ),
}
MMC_TABLES = MappingProxyType(
    {
        measure: {
            task: dict(zip(_MMC_COLUMNS, row, strict=True))
            for task, row in zip(_MMC_TASKS, rows, strict=True)
        }
        for measure, rows in _MMC_RAW.items()
    }
)
