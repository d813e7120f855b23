\begin{tabular}{r|l|l|l|l|l|rl}
 \multicolumn{1}{c|}{\texttt{Benchmark}} & \texttt{param0} & \texttt{param1} & \texttt{param2} & \texttt{param3} & \texttt{param4} & \multicolumn{2}{c}{\texttt{Score, ops/ms}} \\
\hline
\texttt{benchmark\_0} & \texttt{value0} & \texttt{[value1]} & \texttt{\{value2\}} & \texttt{'value3'} & \texttt{"value4"} & \texttt{528,857} & \scriptsize $\pm$ \texttt{278,142}  \\
\texttt{benchmark\_0:secondary1} & \texttt{value0} & \texttt{[value1]} & \texttt{\{value2\}} & \texttt{'value3'} & \texttt{"value4"} & \texttt{549,714} & \scriptsize $\pm$ \texttt{320,227}  \\
\texttt{benchmark\_0:secondary2} & \texttt{value0} & \texttt{[value1]} & \texttt{\{value2\}} & \texttt{'value3'} & \texttt{"value4"} & \texttt{615,500} & \scriptsize $\pm$ \texttt{319,210}  \\
\texttt{benchmark\_0:secondary3} & \texttt{value0} & \texttt{[value1]} & \texttt{\{value2\}} & \texttt{'value3'} & \texttt{"value4"} & \texttt{246,000} & \scriptsize $\pm$ \texttt{847,566}  \\
\texttt{benchmark\_1} & \texttt{value0} & \texttt{[value1]} & \texttt{\{value2\}} & \texttt{'value3'} & \texttt{"value4"} & \texttt{439,000} &  \\
\texttt{benchmark\_1:secondary1} & \texttt{value0} & \texttt{[value1]} & \texttt{\{value2\}} & \texttt{'value3'} & \texttt{"value4"} & \texttt{953,000} &  \\
\texttt{benchmark\_1:secondary2} & \texttt{value0} & \texttt{[value1]} & \texttt{\{value2\}} & \texttt{'value3'} & \texttt{"value4"} & \texttt{367,000} &  \\
\texttt{benchmark\_2} & \texttt{value0} & \texttt{[value1]} & \texttt{\{value2\}} & \texttt{'value3'} & \texttt{"value4"} & \texttt{545,000} & \scriptsize $\pm$ \texttt{553,337}  \\
\texttt{benchmark\_2:secondary1} & \texttt{value0} & \texttt{[value1]} & \texttt{\{value2\}} & \texttt{'value3'} & \texttt{"value4"} & \texttt{434,444} & \scriptsize $\pm$ \texttt{465,183}  \\
\texttt{benchmark\_2:secondary2} & \texttt{value0} & \texttt{[value1]} & \texttt{\{value2\}} & \texttt{'value3'} & \texttt{"value4"} & \texttt{470,333} & \scriptsize $\pm$ \texttt{502,273}  \\
\texttt{benchmark\_2:secondary3} & \texttt{value0} & \texttt{[value1]} & \texttt{\{value2\}} & \texttt{'value3'} & \texttt{"value4"} & \texttt{574,400} & \scriptsize $\pm$ \texttt{969,535}  \\
\texttt{benchmark\_3} & \texttt{value0} & \texttt{[value1]} & \texttt{\{value2\}} & \texttt{'value3'} & \texttt{"value4"} & \texttt{417,571} & \scriptsize $\pm$ \texttt{362,814}  \\
\texttt{benchmark\_3:secondary1} & \texttt{value0} & \texttt{[value1]} & \texttt{\{value2\}} & \texttt{'value3'} & \texttt{"value4"} & \texttt{672,214} & \scriptsize $\pm$ \texttt{287,982}  \\
\texttt{benchmark\_3:secondary2} & \texttt{value0} & \texttt{[value1]} & \texttt{\{value2\}} & \texttt{'value3'} & \texttt{"value4"} & \texttt{560,143} & \scriptsize $\pm$ \texttt{289,800}  \\
\texttt{benchmark\_3:secondary3} & \texttt{value0} & \texttt{[value1]} & \texttt{\{value2\}} & \texttt{'value3'} & \texttt{"value4"} & \texttt{432,833} & \scriptsize $\pm$ \texttt{1036,758}  \\
\texttt{benchmark\_4} & \texttt{value0} & \texttt{[value1]} & \texttt{\{value2\}} & \texttt{'value3'} & \texttt{"value4"} & \texttt{956,000} &  \\
\texttt{benchmark\_4:secondary1} & \texttt{value0} & \texttt{[value1]} & \texttt{\{value2\}} & \texttt{'value3'} & \texttt{"value4"} & \texttt{688,000} &  \\
\texttt{benchmark\_4:secondary2} & \texttt{value0} & \texttt{[value1]} & \texttt{\{value2\}} & \texttt{'value3'} & \texttt{"value4"} & \texttt{237,000} &  \\
\texttt{benchmark\_4:secondary3} & \texttt{value0} & \texttt{[value1]} & \texttt{\{value2\}} & \texttt{'value3'} & \texttt{"value4"} & \texttt{599,000} &  \\
\end{tabular}